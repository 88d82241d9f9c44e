#!/usr/bin/env bash
# run5.sh: fifth device call of this record (H200): the final AUTO against every strategy forced on the L5PC cell at 24,576 and 32,768 cells in double, where the rule on rows missed by 1.21x and 1.24x (h200-2026-12-01-prof, call 4). Output in call5-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-shape/run5.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((140 - ($(date +%s) - t0))); }
R=docs/benchmarks/h200-2026-12-01-shape
w=$OUT/call5 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
B=/tmp/r5/b && rm -rf /tmp/r5 && mkdir -p /tmp/r5
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 --target hinesbatch_cli >>$B.log 2>&1 || { tail -20 $B.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
H=$B/apps/hinesbatch
HINESBATCH_VERBOSE=1 timeout $(($(left) - 5)) $H bench --backend cuda --kind hines \
    --strategy auto,per-system,branch-level,cell-group --morphology jaxley__morph_l5pc_with_axon \
    --systems 24576,32768 --precision double --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
    --max-seconds $(($(left) - 15)) --csv "$w/l5pc.csv" >/dev/null 2>"$w/l5pc.log"
echo "l5pc: $(grep '^bench: [0-9]* rows' "$w/l5pc.log") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
# AUTO over the best forced strategy at each point.
for f in "$w"/l5pc.csv; do
    [ -f "$f" ] || continue
    awk -F, 'NR>1 {m=$9" "$6" "$7; if ($4 ~ /^auto/) {a[m]=$11; s[m]=$4} else if (!(m in b) || $11 < b[m]) {b[m]=$11; bs[m]=$4}}
        END {for (m in a) if (m in b) printf "%s rows: %s %s, best %s %s, ratio %.2f\n", m, s[m], a[m], bs[m], b[m], a[m]/b[m]}' "$f"
done | sort -n | tee "$OUT/call5-auto.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call5.tar.gz" -C "$OUT" call5 && cp "$w/summary.md" "$OUT/call5-summary.md"
echo "done in $(($(date +%s) - t0)) s"
