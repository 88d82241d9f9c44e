#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): `ctest -L cuda` on the tree where the resident solver comes before the span, then the long grid under AUTO now in both precisions (cuSPARSE timed in the same bench calls), and work-items per system swept for one long system alone; everything comes back in wide2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-wide/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-wide
w=$OUT/wide2
mkdir -p "$w"
t0=$(date +%s)
left() { echo $((540 - ($(date +%s) - t0))); }
HB_GPU_TEST_LABELS=cuda HB_CALL_S=${HB_CALL_S:-150} bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?"
grep -E "ctest|build:" "$OUT/t/summary.txt"
B=build-gpu/apps/hinesbatch
grid=(bench --suite thomas --backend cuda --strategy auto --systems 20,200,2000,20000
      --rows 1024,2048,4096,8192 --serial-max-rows 0 --target-s 0.1 --wall-cap 1 --max-seconds 100)
for p in double float; do
    s=$(date +%s)
    timeout $(($(left) > 130 ? 130 : $(left))) $B "${grid[@]}" --precision $p --csv "$w/new-$p.csv" \
        >/dev/null 2>"$w/new-$p.log"
    echo "grid $p new: status $?, $(($(date +%s) - s)) s"
done
for g in 128 512 1024; do
    for spec in "double 4096" "float 8192"; do
        set -- $spec
        [ "$(left)" -gt 40 ] || break 2
        timeout 30 $B bench --suite thomas --backend cuda --strategy cooperative \
            --systems 20,200,2000 --rows $2 --precision $1 --group-size $g --serial-max-rows 0 \
            --target-s 0.1 --wall-cap 1 --csv "$w/sweep-$1-g$g.csv" >/dev/null 2>"$w/sweep-$1-g$g.log"
        echo "sweep $1 x $2 P=$g: $(grep -o 'cuda .*median [0-9.e+-]* ms' "$w/sweep-$1-g$g.log" | sed 's/.*\(double\|float\) \([0-9]* x [0-9]*\) rows.*median/\2/' | tr '\n' ';')"
    done
done
python3 $here/table.py "$w" >"$OUT/wide2.md" 2>&1
tar -czf "$OUT/wide2.tar.gz" -C "$OUT" wide2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
