#!/usr/bin/env bash
# run3.sh: third device call of this record (H200): the final tie-break (the model's choice kept unless another strategy ran more than 3% faster; the timed plan kept as the plan): the GPU tests, then AUTO against every strategy forced on the L5PC and CA1 cells at 16,384 cells in double (three rounds) and on the 15 trees of h200-2026-12-01-shape/run2.sh at 16,384 and 49,152 cells in double and 65,536 in float, with each plan's setup time. Output in call3-*; also AUTO with HINESBATCH_AUTO_ESTIMATE=1 (the model alone) on the L5PC and CA1 cells in the same rounds.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-confirm/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((540 - ($(date +%s) - t0))); }
S=docs/benchmarks/h200-2026-12-01-shape
w=$OUT/call3 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
B=/tmp/r3/b && rm -rf /tmp/r3 && mkdir -p /tmp/r3
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 >>$B.log 2>&1 || { tail -20 $B.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s, $(grep -c -i 'warning' $B.log) warning lines" | tee -a "$w/summary.md"
(cd $B && timeout 150 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
(cd $B && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 60 ctest -L opencl \
    -R "strateg|cell_group|test_plan" -j 3 --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.md"
H=$B/apps/hinesbatch
bench() { # tag, then bench arguments
    local tag=$1; shift
    [ "$(left)" -gt 30 ] || { echo "$tag: skipped, no time" | tee -a "$w/summary.md"; return; }
    HINESBATCH_VERBOSE=1 timeout $(($(left) - 5)) $H bench --backend cuda --serial-max-rows 0 \
        --target-s 0.03 --wall-cap 0.2 --max-seconds $(($(left) - 15)) --csv "$w/$tag.csv" "$@" \
        >/dev/null 2>"$w/$tag.log"
    echo "$tag: $(grep '^bench: [0-9]* rows' "$w/$tag.log") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
}
neurons=$(ls data/morphologies/*.swc | xargs -n1 basename | sed 's/\.swc$//' | grep -v minimal | paste -sd,)
trees=$neurons
for t in v_big20 v_big40 v_deep45 v_mid25 v_wide16; do trees=$trees,$PWD/$S/trees/$t.swc; done
trees=$trees,branchy:1500:4:21,branchy:700:8:22,random:9,levels:1024:6
all=auto,per-system,branch-level,cell-group
for r in 1 2 3; do
    bench l5-double-16384-r$r --kind hines --strategy $all --systems 16384 --precision double \
        --morphology jaxley__morph_l5pc_with_axon,nrn__c91662
    HINESBATCH_AUTO_ESTIMATE=1 bench e5-double-16384-r$r --kind hines --strategy auto --systems 16384 \
        --precision double --morphology jaxley__morph_l5pc_with_axon,nrn__c91662
done
for f in "$w"/e5-*.csv; do awk -F, -v f="$(basename "$f" .csv)" 'NR>1 {printf "%s: %s rows, %s %s ms\n", f, $9, $4, $11}' "$f"; done | tee -a "$w/summary.md" 
bench a-double-16384 --kind hines --strategy $all --morphology "$trees" --systems 16384 --precision double
bench a-float-65536 --kind hines --strategy $all --morphology "$trees" --systems 65536 --precision float
bench a-double-49152 --kind hines --strategy $all --morphology "$trees" --systems 49152 --precision double
# AUTO over the best forced strategy at each point, and what AUTO timed.
for f in "$w"/a-*.csv "$w"/l5-*.csv; do
    [ -f "$f" ] || continue
    awk -F, -v f="$(basename "$f" .csv)" 'NR>1 {m=$9" "$6" "$7; if ($4 ~ /^auto/) {a[m]=$11; s[m]=$4} else if (!(m in b) || $11 < b[m]) {b[m]=$11; bs[m]=$4}}
        END {for (m in a) if (m in b) printf "%s rows: %s %s, best %s %s, ratio %.2f (%s)\n", m, s[m], a[m], bs[m], b[m], a[m]/b[m], f}' "$f"
done | sort -n | tee "$OUT/call3-auto.md"
grep -h "AUTO timed" "$w"/*.log | sort | uniq -c | tee -a "$w/summary.md"
grep -h "strategy auto: setup" "$w"/*.log | sed 's/.*x \([^,]*\),.*setup \([0-9]*\) ms.*/\1 \2/' | tee "$w/setup-auto.txt" >/dev/null
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && cp "$w/summary.md" "$OUT/call3-summary.md"
echo "done in $(($(date +%s) - t0)) s"
