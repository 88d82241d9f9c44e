#!/usr/bin/env bash
# run1.sh: first device call of this record (H200): the GPU tests at 6fb6611 (ctest -L cuda; NVIDIA OpenCL's strategy, cell-group and plan tests), then AUTO against every strategy forced with the refitted float constants (the float grid of h200-2026-12-01-shape/run2.sh: 15 trees at 65,536 cells), the L5PC and CA1 cells at 16,384 cells in double three rounds, and the issue's small-batch targets under AUTO. Output in call1-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-confirm/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((570 - ($(date +%s) - t0))); }
R=docs/benchmarks/h200-2026-12-01-confirm
S=docs/benchmarks/h200-2026-12-01-shape
w=$OUT/call1 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
B=/tmp/r1/b && rm -rf /tmp/r1 && mkdir -p /tmp/r1
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
bench a-float-65536 --kind hines --strategy $all --morphology "$trees" --systems 65536 --precision float
for r in 1 2 3; do
    bench l5-double-16384-r$r --kind hines --strategy $all --systems 16384 --precision double \
        --morphology jaxley__morph_l5pc_with_axon,nrn__c91662
done
for r in 1 2 3; do
    bench t-hines-r$r --kind hines --strategy auto --morphology nrn__c91662 --systems 256,2560 --precision double
    bench t-shared-r$r --kind hines --shared-couplings --strategy auto --morphology nrn__c91662 --systems 256,2560 --precision double
done
bench t-thomas --kind thomas --systems 256000 --rows 512 --precision double
# AUTO over the best forced strategy at each point.
for f in "$w"/a-*.csv "$w"/l5-*.csv; do
    [ -f "$f" ] || continue
    awk -F, -v f="$(basename "$f" .csv)" 'NR>1 {m=$9" "$6" "$7; if ($4 ~ /^auto/) {a[m]=$11; s[m]=$4} else if (!(m in b) || $11 < b[m]) {b[m]=$11; bs[m]=$4}}
        END {for (m in a) if (m in b) printf "%s rows: %s %s, best %s %s, ratio %.2f (%s)\n", m, s[m], a[m], bs[m], b[m], a[m]/b[m], f}' "$f"
done | sort -n | tee "$OUT/call1-auto.md"
for f in "$w"/t-*.csv; do awk -F, -v f="$(basename "$f" .csv)" 'NR>1 && $1=="cuda" {printf "%s: %s systems x %s rows %s %s ms, of copy %s\n", f, $7, $9, $4, $11, $16}' "$f"; done | tee -a "$w/summary.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && cp "$w/summary.md" "$OUT/call1-summary.md"
echo "done in $(($(date +%s) - t0)) s"
