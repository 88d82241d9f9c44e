#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200), on the final rule (one long system alone: at least 8 rows per work-item, up to 1,024): `ctest -L cuda`, then the long half of the seeds' Thomas grid under AUTO now and under the rule before (HINESBATCH_COOP_RESIDENT_LIMIT=49152), double and float, each bench call timing cuSPARSE's two routines beside it; everything comes back in wide3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-wide/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-wide
w=$OUT/wide3
mkdir -p "$w"
t0=$(date +%s)
left() { echo $((560 - ($(date +%s) - t0))); }
HB_GPU_TEST_LABELS=cuda HB_CALL_S=${HB_CALL_S:-150} bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?"
grep -E "ctest|build:" "$OUT/t/summary.txt"
B=build-gpu/apps/hinesbatch
grid=(bench --suite thomas --backend cuda --strategy auto --systems 20,200,2000,20000
      --rows 1024,2048,4096,8192 --serial-max-rows 0 --target-s 0.1 --wall-cap 0.6 --max-seconds 100)
for spec in "new double" "new float" "before double" "before float"; do
    set -- $spec
    [ "$(left)" -gt 100 ] || { echo "grid $2 $1: skipped, $(left) s left"; continue; }
    env=()
    [ "$1" = before ] && env=(HINESBATCH_COOP_RESIDENT_LIMIT=49152)
    s=$(date +%s)
    env "${env[@]}" timeout $(($(left) - 10)) $B "${grid[@]}" --precision "$2" --csv "$w/$1-$2.csv" \
        >/dev/null 2>"$w/$1-$2.log"
    echo "grid $2 $1: status $?, $(($(date +%s) - s)) s"
done
python3 $here/table.py "$w" >"$OUT/wide3.md" 2>&1
tar -czf "$OUT/wide3.tar.gz" -C "$OUT" wide3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
