#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200): the final tree (cyclic reduction in the resident kernel): `ci/gpu.sh --tests` with the cuda label, then the seeds' Thomas grid, each half and precision a bench call timing cuSPARSE's two routines beside ours, as time allows. Everything comes back in call3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-banks/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call3
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-540}
left() { echo $((limit - ($(date +%s) - t0))); }
HB_GPU_TEST_LABELS=cuda HB_CALL_S=170 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
rm -rf "$OUT/t"
B=build-gpu/apps/hinesbatch
grid=(--target-s 0.1 --wall-cap 0.6)
long=(--systems 20,200,2000,20000 --rows 1024,2048,4096,8192)
short=(--systems 256,2560,25600,256000 --rows 64,128,256,512)
run() { # run NAME SECONDS ARGS...
    local name=$1 need=$2
    shift 2
    [ "$(left)" -gt $((need / 2)) ] || { echo "$name: skipped, $(left) s left"; return; }
    local s=$(date +%s) cap=$need
    [ "$cap" -lt "$(($(left) - 8))" ] || cap=$(($(left) - 8))
    timeout $((cap + 5)) $B bench --suite thomas --backend cuda --strategy auto --serial-max-rows 0 \
        "$@" "${grid[@]}" --max-seconds "$cap" --csv "$w/$name.csv" >/dev/null 2>"$w/$name.log"
    echo "$name: status $?, $(($(date +%s) - s)) s"
}
run new-double-short 60 "${short[@]}" --precision double
run new-float-short 55 "${short[@]}" --precision float
run new-double-long 100 "${long[@]}" --precision double
run new-float-long 100 "${long[@]}" --precision float
python3 docs/benchmarks/h200-2026-11-29-unitdiag/table.py "$w" >"$OUT/call3.md" 2>&1
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
