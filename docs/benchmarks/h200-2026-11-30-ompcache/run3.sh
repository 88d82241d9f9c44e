#!/usr/bin/env bash
# run3.sh: third device call of this record (H200): the cell-group solver's work-items per cell chosen by the batch's waves (api/core/plan.c cell_launch) against 64 and 128 forced, CA1 cells of 728 rows at 256, 1,024, 2,560 and 25,600 cells, double and float, one run each, two alternations; `ctest -L cuda`; the main job on CUDA and OpenMP (16 threads) once more. Output in call3-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-ompcache/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call3 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=/tmp/r3 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
echo "| round | group | double 256 | 1,024 | 2,560 | 25,600 | float 256 | 1,024 | 2,560 | 25,600 |" >"$w/cell.md"
echo "|---|---|---|---|---|---|---|---|---|---|" >>"$w/cell.md"
for round in 1 2; do
    for g in 0 64 128; do
        f=$w/cell-r$round-g$g
        timeout 60 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
            --systems 256,1024,2560,25600 --precision double,float --group-size $g --serial-max-rows 0 --target-s 0.05 \
            --wall-cap 0.3 --max-seconds 30 --csv "$f.csv" >/dev/null 2>"$f.log"
        echo "| $round | ${g/#0/auto} | $(awk -F, 'NR>1 && $1=="cuda" {printf "%s | ", $11}' "$f.csv")" | tee -a "$w/cell.md"
        [ "$g" = 0 ] && grep -o "cuda .*strategy cell-group.*work-items per cell[^)]*" "$f.log" | sed 's/: setup.*(/: /' | tee -a "$w/auto.txt"
    done
done
(cd $B && timeout 120 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/cell.md"
grep -h "FAIL" "$w/ctest-cuda.txt" | head -3
for round in 1 2; do
    for be in cuda openmp; do
        OMP_NUM_THREADS=16 OMP_PROC_BIND=close HINESBATCH_BACKEND=$be timeout 60 $B/apps/hinesbatch simulate --cells 200 \
            --record 4 --no-split --csv /dev/null >$R/sim.txt 2>&1
        cat $R/sim.txt >>"$w/sim.txt"
        echo "main job, $be, round $round: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $R/sim.txt)" | tee -a "$w/cell.md"
    done
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && cp "$w/cell.md" "$OUT/call3-cell.md" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
