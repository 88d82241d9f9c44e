#!/usr/bin/env bash
# run5.sh: fifth device call of this record (H200): the committed tree after the chain walk's next-node and load expressions were folded into macros (kernels_cl/solver/hb_cell_phases.cl; the same operations): `ctest -L cuda`, NVIDIA OpenCL's cell, sim and net tests, the epoch (CUDA 10,000 and 200 CA1 cells in double, 10,000 in float; NVIDIA OpenCL 10,000 in double) and the cell-group solver under AUTO at 256 and 2,560 cells. Output in call5-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-ompcache/run5.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call5 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r5 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
sim() { # sim BACKEND CELLS PREC
    OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$1 timeout 60 $B/apps/hinesbatch \
        simulate --cells "$2" --precision "$3" --record 4 --no-split --csv /dev/null >$R/sim.txt 2>&1
    cat $R/sim.txt >>"$w/sim.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $R/sim.txt
}
for run in "cuda 10000 double" "cuda 200 double" "cuda 10000 float" "opencl 10000 double"; do
    set -- $run
    echo "simulate $1 $2 cells, $3: $(sim "$1" "$2" "$3")" | tee -a "$w/summary.txt"
done
timeout 40 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
    --systems 256,2560 --precision double,float --serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30 \
    --csv "$w/cell.csv" >/dev/null 2>"$w/cell.log"
echo "cell-group: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s: %s ms; ", $6, $7, $11}' "$w/cell.csv")" | tee -a "$w/summary.txt"
(cd $B && timeout 120 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/summary.txt"
(cd $B && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 70 ctest -L opencl -R "net|sim|cell" -j 2 \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, net|sim|cell): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.txt"
grep -h "FAIL" "$w/ctest-cuda.txt" "$w/ctest-opencl.txt" | head -3
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call5.tar.gz" -C "$OUT" call5 && cp "$w/summary.txt" "$OUT/call5-summary.txt" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
