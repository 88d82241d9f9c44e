#!/usr/bin/env bash
# run4.sh: fourth device call of this record (H200): shared couplings under the final AUTO (cell-group's modelled time no longer scaled) against per-system and cell-group forced (CA1, L5PC, levels:1024:6, v_big40) at 16,384 and 49,152 cells in double. Output in call4-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-shape/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((200 - ($(date +%s) - t0))); }
R=docs/benchmarks/h200-2026-12-01-shape
w=$OUT/call4 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
B=/tmp/r4/b && rm -rf /tmp/r4 && mkdir -p /tmp/r4
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 --target hinesbatch_cli test_strategies >>$B.log 2>&1 || { tail -20 $B.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
HINESBATCH_BACKEND=cuda $B/tests/test_strategies >"$w/test-strategies.txt" 2>&1
echo "test_strategies (CUDA): $(tail -1 "$w/test-strategies.txt")" | tee -a "$w/summary.md"
H=$B/apps/hinesbatch
if [ "$(left)" -gt 40 ]; then
    HINESBATCH_VERBOSE=1 timeout $(($(left) - 5)) $H bench --backend cuda --kind hines --shared-couplings \
        --strategy auto,per-system,cell-group \
        --morphology nrn__c91662,jaxley__morph_l5pc_with_axon,levels:1024:6,$PWD/$R/trees/v_big40.swc \
        --systems 16384,49152 --precision double --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
        --max-seconds $(($(left) - 15)) --csv "$w/shared.csv" >/dev/null 2>"$w/shared.log"
    echo "shared: $(grep '^bench: [0-9]* rows' "$w/shared.log") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
fi
# AUTO over the best forced strategy at each point.
for f in "$w"/a-*.csv "$w"/shared.csv; do
    [ -f "$f" ] || continue
    awk -F, 'NR>1 {m=$9" "$6" "$7; if ($4 ~ /^auto/) {a[m]=$11; s[m]=$4} else if (!(m in b) || $11 < b[m]) {b[m]=$11; bs[m]=$4}}
        END {for (m in a) if (m in b) printf "%s rows: %s %s, best %s %s, ratio %.2f\n", m, s[m], a[m], bs[m], b[m], a[m]/b[m]}' "$f"
done | sort -n | tee "$OUT/call4-auto.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && cp "$w/summary.md" "$OUT/call4-summary.md"
echo "done in $(($(date +%s) - t0)) s"
