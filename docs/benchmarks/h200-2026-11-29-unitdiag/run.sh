#!/usr/bin/env bash
# run.sh: one device call of this record (H200): this tree and the tree before (this record's unitdiag.diff reversed) built alike, `ctest -L cuda` when TESTS=1, then the seeds' Thomas grid halves named in RUNS, each a separate bench call timing cuSPARSE's two routines beside ours; everything comes back in $TAG.tar.gz.
# Usage, from the repository root on the GPU machine:
#   OUT=DIR TAG=call1 TESTS=1 RUNS="new:double:long new:double:short old:double:short" bash docs/benchmarks/h200-2026-11-29-unitdiag/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}" "${TAG:?TAG: this call}" "${RUNS:?RUNS: VERSION:PRECISION:HALF ...}"
here=docs/benchmarks/h200-2026-11-29-unitdiag
w=$OUT/$TAG
mkdir -p "$w"
t0=$(date +%s)
left() { echo $((565 - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)

# The bench binaries: this tree and the tree before (this record's
# unitdiag.diff reversed), each built alike (Release, CUDA only) outside
# build-gpu, side by side on the host's cores; kept while the machine is warm.
new=/tmp/hb-now old=/tmp/hb-before
build_tree() { # build_tree DIR [patch -R]
    [ -x "$1/b/apps/hinesbatch" ] && return 0
    rm -rf "$1" && mkdir -p "$1"
    tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$1"
    (cd "$1" && { [ -z "${2:-}" ] || patch -s -R -p1 <"$here/unitdiag.diff"; } &&
        cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
            -DHINESBATCH_WITH_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 &&
        cmake --build b -j 8 --target hinesbatch_cli >>b.log 2>&1)
}
build_tree $new & p1=$!
build_tree $old reverse & p2=$!
wait $p1 $p2
for d in $new $old; do
    echo "$d: $(test -x $d/b/apps/hinesbatch && echo built || (echo FAILED; tail -5 $d/b.log))"
done
if [ "${TESTS:-0}" = 1 ]; then
    HB_GPU_TEST_LABELS=cuda HB_CALL_S=200 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
    echo "gpu.sh --tests (cuda): status $?"
    grep -E "ctest|build:" "$OUT/t/summary.txt"
    cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
    rm -rf "$OUT/t"
fi

for spec in $RUNS; do
    IFS=: read -r ver prec half <<<"$spec"
    B=$new/b/apps/hinesbatch
    [ "$ver" = old ] && B=$old/b/apps/hinesbatch
    if [ "$half" = long ]; then size=(--systems 20,200,2000,20000 --rows 1024,2048,4096,8192)
    else size=(--systems 256,2560,25600,256000 --rows 64,128,256,512); fi
    [ "$(left)" -gt 95 ] || { echo "$spec: skipped, $(left) s left"; continue; }
    s=$(date +%s)
    timeout $(($(left) - 10)) $B bench --suite thomas --backend cuda --strategy auto "${size[@]}" \
        --serial-max-rows 0 --target-s 0.1 --wall-cap 0.6 --max-seconds 100 --precision "$prec" \
        --csv "$w/$ver-$prec-$half.csv" >/dev/null 2>"$w/$ver-$prec-$half.log"
    echo "$spec: status $?, $(($(date +%s) - s)) s"
done
python3 $here/table.py "$w" >"$OUT/$TAG.md" 2>&1
tar -czf "$OUT/$TAG.tar.gz" -C "$OUT" "$TAG" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
