#!/usr/bin/env bash
# run.sh: the device call of this record (H200): `ctest -L cuda`, then the long half of the seeds' Thomas grid (20..20,000 systems of 1,024..8,192 rows, double and float) under AUTO three ways in one call, each bench call timing cuSPARSE's two routines beside it: one system alone held to 48 KiB of local memory (the rule before), the rule now, and one group per system forced (HINESBATCH_COOP_SPAN=1); then work-items per system swept for one long system alone.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-wide/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-wide
w=$OUT/wide
mkdir -p "$w"
trap 'python3 $here/table.py "$w" >"$OUT/wide.md" 2>&1; tar -czf "$OUT/wide.tar.gz" -C "$OUT" wide' EXIT
HB_GPU_TEST_LABELS=cuda HB_CALL_S=${HB_CALL_S:-200} bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?"
grep -E "ctest|build:" "$OUT/t/summary.txt"
B=build-gpu/apps/hinesbatch
grid=(bench --suite thomas --backend cuda --strategy auto --systems 20,200,2000,20000
      --rows 1024,2048,4096,8192 --serial-max-rows 0 --target-s 0.1 --wall-cap 1 --max-seconds 100)
for p in double float; do
    for run in before new g1; do
        env=()
        [ $run = before ] && env=(HINESBATCH_COOP_RESIDENT_LIMIT=49152)
        [ $run = g1 ] && env=(HINESBATCH_COOP_SPAN=1)
        s=$(date +%s)
        env "${env[@]}" timeout 120 $B "${grid[@]}" --precision $p --csv "$w/$run-$p.csv" \
            >/dev/null 2>"$w/$run-$p.log"
        echo "grid $p $run: status $?, $(($(date +%s) - s)) s"
    done
done
for g in 128 256 512 1024; do
    for spec in "double 4096" "float 8192"; do
        set -- $spec
        HINESBATCH_COOP_SPAN=1 timeout 40 $B bench --suite thomas --backend cuda --strategy cooperative \
            --systems 20,200,2000 --rows $2 --precision $1 --group-size $g --serial-max-rows 0 \
            --target-s 0.1 --wall-cap 1 --csv "$w/sweep-$1-g$g.csv" >/dev/null 2>"$w/sweep-$1-g$g.log"
        echo "sweep $1 x $2 P=$g: $(grep -o 'median [0-9.e+-]* ms.*(.*)' "$w/sweep-$1-g$g.log" | grep -v cusparse | sed 's/;.*(/ (/' | tr '\n' ' ')"
    done
done
