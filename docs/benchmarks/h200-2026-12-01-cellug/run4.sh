#!/usr/bin/env bash
# run4.sh: fourth device call of this record (H200): AUTO's rule with its float threshold (512 cells per SM) and mixed batches, against every strategy forced at the points call 3 found AUTO off or changed (CA1 float 65,536, the real-cell mix 4,096 to 65,536); the cell-group targets (256 and 2,560 CA1 cells) under AUTO, couplings repeated and shared, three rounds; NVIDIA OpenCL against CUDA on the cell-group solver; `ctest -L cuda` and NVIDIA OpenCL's shared-couplings, cell-group and strategy tests. Output in call4-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-cellug/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call4 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r4 && rm -rf $R && mkdir -p $R
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
    timeout 120 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy $5 --morphology $2 --systems $3 \
        --precision $4 $6 --serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 100 \
        --csv "$w/cross-$1.csv" >/dev/null 2>"$w/cross-$1.log"
    echo "$1: rc $?, $(tail -1 "$w/cross-$1.log")" | tee -a "$w/auto.md"
    awk -F, 'NR>1 && $1=="cuda" {printf "%s %s %s: %s ms (%s of copy)\n", $4, $6, $7, $11, $16}' "$w/cross-$1.csv" >>"$w/auto.md"
}
cross ca1-float nrn__c91662 65536 float auto,per-system,branch-level,cell-group ""
cross ca1-float-shared nrn__c91662 65536 float auto,per-system,cell-group --shared-couplings
cross mix-real mix:real 4096,16384,65536 double,float auto,per-system,branch-level,cell-group ""
echo "after $(($(date +%s) - t0)) s" | tee -a "$w/auto.md"
echo "| round | couplings | double 256 | 2,560 | float 256 | 2,560 |" >"$w/targets.md"
echo "|---|---|---|---|---|---|" >>"$w/targets.md"
for round in 1 2 3; do
    for sc in repeated shared; do
        flag=""; [ $sc = shared ] && flag=--shared-couplings
        timeout 60 $B/apps/hinesbatch bench --backend cuda --kind hines --morphology nrn__c91662 --systems 256,2560 \
            --precision double,float $flag --serial-max-rows 0 --target-s 0.1 --wall-cap 0.5 --max-seconds 30 \
            --csv $R/t.csv >/dev/null 2>>"$w/targets.log"
        echo "| $round | $sc | $(awk -F, 'NR>1 && $1=="cuda" {printf "%s (%s) | ", $11, $4}' $R/t.csv)" | tee -a "$w/targets.md"
    done
done
# NVIDIA OpenCL against CUDA, the same plans (cell-group, AUTO's group; OpenCL has no occupancy query).
echo "| round | backend | double 256 | 2,560 | 25,600 | float 256 | 2,560 | 25,600 |" >"$w/opencl.md"
echo "|---|---|---|---|---|---|---|---|" >>"$w/opencl.md"
for round in 1 2; do
    OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 90 $B/apps/hinesbatch bench --backend cuda,opencl \
        --kind hines --strategy cell-group --morphology nrn__c91662 --systems 256,2560,25600 --precision double,float \
        --shared-couplings --serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 60 --csv $R/o.csv >/dev/null 2>>"$w/opencl.log"
    for be in cuda opencl; do
        echo "| $round | $be | $(awk -F, -v b=$be 'NR>1 && $1==b {printf "%s | ", $11}' $R/o.csv)" | tee -a "$w/opencl.md"
    done
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && cat "$w/auto.md" "$w/targets.md" "$w/opencl.md" >"$OUT/call4-summary.md"
echo "done in $(($(date +%s) - t0)) s"
