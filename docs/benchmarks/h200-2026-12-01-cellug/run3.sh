#!/usr/bin/env bash
# run3.sh: third device call of this record (H200): AUTO's new rule (copies of one cell: cell-group below 384 cells per SM, per-system from there) against every strategy forced, CA1 cells at 4,096 to 131,072, double and float, couplings repeated and shared; the real-cell mix (AUTO's rule unchanged there) in double; `ctest -L cuda`; NVIDIA OpenCL's shared-couplings and cell-group tests. Output in call3-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-cellug/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call3 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r3 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
(cd $B && timeout 150 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/auto.md"
(cd $B && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 90 ctest -L opencl -R "shared_coup|cell_group|strateg" -j 3 \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, shared_coup|cell_group|strateg): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/auto.md"
grep -h "FAIL" "$w/ctest-cuda.txt" "$w/ctest-opencl.txt" | head -3
cross() { # cross TAG MORPHOLOGY SYSTEMS PRECISIONS STRATEGIES [--shared-couplings]
    timeout 170 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy $5 --morphology $2 --systems $3 \
        --precision $4 $6 --serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 150 \
        --csv "$w/cross-$1.csv" >/dev/null 2>"$w/cross-$1.log"
    echo "$1: rc $?, $(tail -1 "$w/cross-$1.log")" | tee -a "$w/auto.md"
    awk -F, 'NR>1 && $1=="cuda" {printf "%s %s %s: %s ms (%s of copy)\n", $4, $6, $7, $11, $16}' "$w/cross-$1.csv" >>"$w/auto.md"
    echo "after $(($(date +%s) - t0)) s" | tee -a "$w/auto.md"
}
cross ca1-repeated nrn__c91662 4096,16384,32768,65536,131072 double,float auto,per-system,branch-level,cell-group ""
cross ca1-shared nrn__c91662 4096,16384,32768,65536,131072 double,float auto,per-system,cell-group --shared-couplings
cross mix-real mix:real 4096,16384,65536 double auto,per-system,branch-level,cell-group,fine-tree ""
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && cp "$w/auto.md" "$OUT/call3-auto.md"
echo "done in $(($(date +%s) - t0)) s"
