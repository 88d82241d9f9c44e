#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200), on the final tree (rows loaded four per work-item, groups within the kernel's own block limit): `ctest -L cuda`; the final kernel against the same kernel loading two rows at a time (-DHB_COOPL_BATCH=2) at call 2's points; then the seeds' whole Thomas grid in both precisions, each half a bench call timing cuSPARSE's two routines beside ours. Everything comes back in call3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-unitdiag/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-unitdiag
w=$OUT/call3
mkdir -p "$w"
t0=$(date +%s)
left() { echo $((565 - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)

# build_tree NAME [CUDA FLAGS]: this tree built (Release, CUDA only) in /tmp/hb3-NAME.
build_tree() {
    local d=/tmp/hb3-$1
    rm -rf "$d" && mkdir -p "$d"
    tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$d"
    (cd "$d" && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
        -DHINESBATCH_WITH_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES="$arch" \
        -DCMAKE_CUDA_FLAGS="${2:-}" >b.log 2>&1 && cmake --build b -j 8 --target hinesbatch_cli >>b.log 2>&1)
}
build_tree new & p1=$!
build_tree b2 -DHB_COOPL_BATCH=2 & p2=$!
wait $p1 $p2
for k in new b2; do
    echo "$k: $(test -x /tmp/hb3-$k/b/apps/hinesbatch && echo built || (echo FAILED; tail -5 /tmp/hb3-$k/b.log))"
done
HB_GPU_TEST_LABELS=cuda HB_CALL_S=200 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?"
grep -E "ctest|build:" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
rm -rf "$OUT/t"

bench() { # bench KERNEL CSV-NAME MIN-LEFT ARGS...
    local k=$1 name=$2 need=$3
    shift 3
    [ "$(left)" -gt "$need" ] || { echo "$name: skipped, $(left) s left"; return; }
    local s=$(date +%s)
    timeout $(($(left) - 10)) /tmp/hb3-$k/b/apps/hinesbatch bench --suite thomas --backend cuda \
        --strategy auto --serial-max-rows 0 "$@" --csv "$w/$name.csv" >/dev/null 2>"$w/$name.log"
    echo "$name: status $?, $(($(date +%s) - s)) s"
}
grid=(--target-s 0.1 --wall-cap 0.6 --max-seconds 100)
long=(--systems 20,200,2000,20000 --rows 1024,2048,4096,8192)
short=(--systems 256,2560,25600,256000 --rows 64,128,256,512)
bench new new-double-long 95 "${long[@]}" "${grid[@]}" --precision double
bench new new-double-short 60 "${short[@]}" "${grid[@]}" --precision double
# Two rows at a time against four, turn about, at call 2's points (double).
for i in 1 2; do
    for k in new b2; do
        bench $k ab-$k-r$i 30 --systems 20,200,2560,25600 --rows 128,512,1024 \
            --target-s 0.05 --wall-cap 0.3 --max-seconds 40 --precision double
    done
done
bench new new-float-short 60 "${short[@]}" "${grid[@]}" --precision float
bench new new-float-long 95 "${long[@]}" "${grid[@]}" --precision float
python3 $here/table.py "$w" >"$OUT/call3.md" 2>&1
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
