#!/usr/bin/env bash
# run2.sh: second device call of this record (H200): the GPU tests (ctest -L cuda; NVIDIA OpenCL's strategy and cell-group tests) with AUTO's cost model, then AUTO against every strategy forced on 15 trees (the shipped neurons but the 4-row one, five trees of gen_trees.py held out of the fit, four of the bench's synthetic kinds not in it) at 16,384 and 49,152 cells in double and 65,536 in float, and with shared couplings. Output in call2-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-shape/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((575 - ($(date +%s) - t0))); }
R=docs/benchmarks/h200-2026-12-01-shape
w=$OUT/call2 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
B=/tmp/r2/b && rm -rf /tmp/r2 && mkdir -p /tmp/r2
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 >>$B.log 2>&1 || { tail -20 $B.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
(cd $B && timeout 150 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
(cd $B && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 60 ctest -L opencl \
    -R "strateg|cell_group|test_plan" -j 3 --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.md"
H=$B/apps/hinesbatch
neurons=$(ls data/morphologies/*.swc | xargs -n1 basename | sed 's/\.swc$//' | grep -v minimal | paste -sd,)
trees=$neurons
for t in v_big20 v_big40 v_deep45 v_mid25 v_wide16; do trees=$trees,$PWD/$R/trees/$t.swc; done
trees=$trees,branchy:1500:4:21,branchy:700:8:22,random:9,levels:1024:6
for pt in 16384:double 65536:float 49152:double; do
    [ "$(left)" -gt 40 ] || break
    tag=${pt#*:}-${pt%:*}
    HINESBATCH_VERBOSE=1 timeout $(($(left) - 5)) $H bench --backend cuda --kind hines \
        --strategy auto,per-system,branch-level,cell-group --morphology "$trees" --systems ${pt%:*} \
        --precision ${pt#*:} --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
        --max-seconds $(($(left) - 15)) --csv "$w/a-$tag.csv" >/dev/null 2>"$w/a-$tag.log"
    echo "${pt}: $(grep '^bench: [0-9]* rows' "$w/a-$tag.log") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
done
if [ "$(left)" -gt 40 ]; then
    HINESBATCH_VERBOSE=1 timeout $(($(left) - 5)) $H bench --backend cuda --kind hines --shared-couplings \
        --strategy auto,per-system,cell-group --morphology nrn__c91662,jaxley__morph_l5pc_with_axon,levels:1024:6 \
        --systems 16384,49152 --precision double --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
        --max-seconds $(($(left) - 15)) --csv "$w/shared.csv" >/dev/null 2>"$w/shared.log"
    echo "shared: $(grep '^bench: [0-9]* rows' "$w/shared.log") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
fi
# AUTO over the best forced strategy at each point.
for f in "$w"/a-*.csv "$w"/shared.csv; do
    [ -f "$f" ] || continue
    awk -F, 'NR>1 {m=$9" "$6" "$7; if ($4 ~ /^auto/) {a[m]=$11; s[m]=$4} else if (!(m in b) || $11 < b[m]) {b[m]=$11; bs[m]=$4}}
        END {for (m in a) if (m in b) printf "%s rows: %s %s, best %s %s, ratio %.2f\n", m, s[m], a[m], bs[m], b[m], a[m]/b[m]}' "$f"
done | sort -n | tee "$OUT/call2-auto.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && cp "$w/summary.md" "$OUT/call2-summary.md"
echo "done in $(($(date +%s) - t0)) s"
