#!/usr/bin/env bash
# run1.sh: first device call of this record (H200): the cell-group solver with shared couplings (kernel hb_hines_cell_ug: d and rhs alone in local memory) against the staged kernel on the couplings repeated, CA1 cells of 728 rows at 256, 1,024, 2,560 and 25,600, double and float, AUTO's group and 64 / 128 forced, two alternations; the same with the reciprocal factor (EXACT 0, a sed of a copy of the tree); registers per kernel; `ctest -L cuda` and NVIDIA OpenCL's shared-couplings and cell-group tests. Output in call1-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-cellug/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((560 - ($(date +%s) - t0))); }
w=$OUT/call1 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r1 && rm -rf $R && mkdir -p $R
B=$R/b
# The reciprocal variant: the solver's factor u/d' as u x (1/d'), one division less per node.
cp -r . $R/src2 && rm -rf $R/src2/build* && sed -i 's/HB_CELL_SOLVE_STAGED(1, 0, 0, 0,/HB_CELL_SOLVE_STAGED(0, 0, 0, 0,/' $R/src2/kernels_cl/solver/hines_cell.cl
grep -c "HB_CELL_SOLVE_STAGED(0, 0, 0, 0," $R/src2/kernels_cl/solver/hines_cell.cl >"$w/recip-sed.txt"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
cmake -S $R/src2 -B $R/b2 -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >>$R/build.log 2>&1 && cmake --build $R/b2 -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
cuobjdump -res-usage $B/libhinesbatch.so 2>/dev/null | grep -A1 "hines_cell" | grep -o "Function [^:]*\|REG:[0-9]*\|SHARED:[0-9]*" | paste - - - >"$w/regs.txt"
cat "$w/regs.txt"
bench() { # bench BINARY TAG GROUP [--shared-couplings]
    local f=$w/$2
    timeout 60 $1 bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
        --systems 256,1024,2560,25600 --precision double,float --group-size $3 $4 --serial-max-rows 0 --target-s 0.05 \
        --wall-cap 0.3 --max-seconds 30 --csv "$f.csv" >/dev/null 2>"$f.log"
    echo "| $2 | $(awk -F, 'NR>1 && $1=="cuda" {printf "%s | ", $11}' "$f.csv")" | tee -a "$w/cell.md"
    [ "$3" = 0 ] && grep -o "cuda .*strategy cell-group.*work-items per cell[^)]*" "$f.log" | sed 's/: setup.*(/: /' >>"$w/auto.txt"
}
echo "| run | double 256 | 1,024 | 2,560 | 25,600 | float 256 | 1,024 | 2,560 | 25,600 |" >"$w/cell.md"
echo "|---|---|---|---|---|---|---|---|---|" >>"$w/cell.md"
for round in 1 2; do
    bench $B/apps/hinesbatch "r$round repeated auto" 0 ""
    bench $B/apps/hinesbatch "r$round shared auto" 0 --shared-couplings
    bench $R/b2/apps/hinesbatch "r$round recip repeated auto" 0 ""
    bench $R/b2/apps/hinesbatch "r$round recip shared auto" 0 --shared-couplings
done
for g in 64 128; do
    bench $B/apps/hinesbatch "shared g$g" $g --shared-couplings
done
# AUTO's strategy with shared couplings (no --strategy).
timeout 60 $B/apps/hinesbatch bench --backend cuda --kind hines --morphology nrn__c91662 --systems 256,2560,25600 \
    --precision double --shared-couplings --serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30 \
    --csv "$w/auto-strategy.csv" >/dev/null 2>"$w/auto-strategy.log"
echo "AUTO with shared couplings: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s %s ms; ", $4, $7, $11}' "$w/auto-strategy.csv")" | tee -a "$w/cell.md"
(cd $B && timeout 150 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/cell.md"
(cd $B && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 90 ctest -L opencl -R "shared_coup|cell_group" -j 2 \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, shared_coup|cell_group): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/cell.md"
grep -h "FAIL" "$w/ctest-cuda.txt" "$w/ctest-opencl.txt" | head -3
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && cp "$w/cell.md" "$OUT/call1-cell.md"
echo "done in $(($(date +%s) - t0)) s"
