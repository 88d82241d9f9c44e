#!/usr/bin/env bash
# run4.sh: the fourth device call of this record (H200): the final kernel (two rows loaded at a time, the default after call 3) over the seeds' Thomas grid: the short half in double and float, then the long halves as time allows, each a bench call timing cuSPARSE's two routines beside ours. Reuses call 3's -DHB_COOPL_BATCH=2 build (the same code) while the machine is warm. Everything comes back in call4.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-unitdiag/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-unitdiag
w=$OUT/call4
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-250}
left() { echo $((limit - ($(date +%s) - t0))); }
B=/tmp/hb3-b2/b/apps/hinesbatch
if [ ! -x $B ]; then
    arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
    d=/tmp/hb3-b2 && rm -rf $d && mkdir -p $d && tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $d
    (cd $d && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
        -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 && cmake --build b -j 16 --target hinesbatch_cli >>b.log 2>&1)
fi
echo "binary: $(test -x $B && echo ready || echo MISSING)"
grid=(--target-s 0.1 --wall-cap 0.6 --max-seconds 100)
long=(--systems 20,200,2000,20000 --rows 1024,2048,4096,8192)
short=(--systems 256,2560,25600,256000 --rows 64,128,256,512)
run() { # run NAME MIN-LEFT ARGS...
    local name=$1 need=$2
    shift 2
    [ "$(left)" -gt "$need" ] || { echo "$name: skipped, $(left) s left"; return; }
    local s=$(date +%s)
    timeout $(($(left) - 5)) $B bench --suite thomas --backend cuda --strategy auto --serial-max-rows 0 \
        "$@" "${grid[@]}" --csv "$w/$name.csv" >/dev/null 2>"$w/$name.log"
    echo "$name: status $?, $(($(date +%s) - s)) s"
}
run new-double-short 58 "${short[@]}" --precision double
run new-float-short 48 "${short[@]}" --precision float
run new-float-long 97 "${long[@]}" --precision float
run new-double-long 99 "${long[@]}" --precision double
python3 $here/table.py "$w" >"$OUT/call4.md" 2>&1
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
