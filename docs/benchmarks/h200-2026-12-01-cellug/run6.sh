#!/usr/bin/env bash
# run6.sh: sixth device call of this record (H200): the final tree's `ctest -L cuda` and NVIDIA OpenCL's solver tests; AUTO against every strategy on the shipped neurons' small cells (the tiny-tree threshold, now 16 rows) and on the CA1 cell at 256, 2,560 and 4,096 cells, double. Output in call6-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-cellug/run6.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call6 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r6 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
(cd $B && timeout 150 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/summary.md"
(cd $B && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 120 ctest -L opencl \
    -R "shared_coup|cell_group|strateg|test_plan|test_hines|tridiag|coop" -j 3 --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, solver tests): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.md"
grep -h "FAIL" "$w/ctest-cuda.txt" "$w/ctest-opencl.txt" | head -3
timeout 150 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy auto,per-system,branch-level,cell-group \
    --morphology jaxley__morph_ca1_n120_250,jaxley__morph_minimal,nrn__c91662 --systems 256,2560,4096 --precision double \
    --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 --max-seconds 120 --csv "$w/small.csv" >/dev/null 2>"$w/small.log"
echo "small: rc $?, $(tail -1 "$w/small.log")" | tee -a "$w/summary.md"
awk -F, 'NR>1 && $1=="cuda" {printf "%s rows %s cells %s: %s ms\n", $9, $7, $4, $11}' "$w/small.csv" | tee -a "$w/summary.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call6.tar.gz" -C "$OUT" call6 && cp "$w/summary.md" "$OUT/call6-summary.md"
echo "done in $(($(date +%s) - t0)) s"
