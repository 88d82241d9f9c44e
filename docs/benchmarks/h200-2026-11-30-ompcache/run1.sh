#!/usr/bin/env bash
# run1.sh: first device call of this record (H200 and its 16-core host): the host's caches (lscpu); the committed tree's `ctest -L cuda` and NVIDIA OpenCL's cell, sim and net tests; the main job side by side on CUDA and on OpenMP (16 threads) built with 8 (committed), 4 and 2 cells per tile (HB_HOST_LANES), double and float, four alternations; 8 threads; Nsight Compute's warp counters of the cell-group solver at 2,560 CA1 cells, double and float. Output in call1-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-ompcache/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((540 - ($(date +%s) - t0))); }
w=$OUT/call1 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
lscpu >"$w/lscpu.txt"; grep -E "Model name|Thread|Core|Socket|NUMA node\(|L1d|L2|L3" "$w/lscpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r1 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
for L in 4 2; do
    cmake -S . -B $R/o$L -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENCL=OFF \
        -DCMAKE_C_FLAGS="-DHB_HOST_LANES=$L" >>$R/build.log 2>&1 &&
        cmake --build $R/o$L -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
done
echo "build after $(($(date +%s) - t0)) s"
sim() { # sim BINARY BACKEND CELLS PREC THREADS
    local o=$R/sim.txt
    OMP_NUM_THREADS=$5 OMP_PROC_BIND=close HINESBATCH_BACKEND=$2 timeout 60 $1 \
        simulate --cells "$3" --precision "$4" --record 4 --no-split --csv /dev/null >$o 2>&1
    echo "== $*" >>"$w/sim.txt"; cat $o >>"$w/sim.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $o
}
echo "| round | precision | CUDA | OpenMP 16, 8 lanes | 4 lanes | 2 lanes |" >"$w/side.md"
echo "|---|---|---|---|---|---|" >>"$w/side.md"
for round in 1 2 3 4; do
    for prec in double float; do
        c=$(sim $B/apps/hinesbatch cuda 200 $prec 16)
        a=$(sim $B/apps/hinesbatch openmp 200 $prec 16)
        b=$(sim $R/o4/apps/hinesbatch openmp 200 $prec 16)
        d=$(sim $R/o2/apps/hinesbatch openmp 200 $prec 16)
        echo "| $round | $prec | $c | $a | $b | $d |" | tee -a "$w/side.md"
    done
done
echo "8 threads, double: lanes 8 $(sim $B/apps/hinesbatch openmp 200 double 8), 4 $(sim $R/o4/apps/hinesbatch openmp 200 double 8), 2 $(sim $R/o2/apps/hinesbatch openmp 200 double 8)" | tee -a "$w/side.md"
echo "1 thread, 32 cells, double: lanes 8 $(sim $B/apps/hinesbatch openmp 32 double 1), 4 $(sim $R/o4/apps/hinesbatch openmp 32 double 1), 2 $(sim $R/o2/apps/hinesbatch openmp 32 double 1)" | tee -a "$w/side.md"
(cd $B && timeout 120 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/side.md"
(cd $B && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 70 ctest -L opencl -R "net|sim|cell" -j 2 \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, net|sim|cell): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/side.md"
grep -h "FAIL" "$w/ctest-cuda.txt" "$w/ctest-opencl.txt" | head -3
if command -v ncu >/dev/null && [ "$(left)" -gt 90 ]; then
    for prec in double float; do
        timeout 60 ncu --kernel-name regex:hb_hines_cell --launch-skip 3 --launch-count 1 \
            --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
            --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
            $B/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
            --systems 2560 --precision $prec --serial-max-rows 0 --max-reps 5 --csv /dev/null >"$w/ncu-$prec.txt" 2>&1
        echo "ncu $prec: $(grep -E "Duration|thread_inst_executed_per|inst_executed.sum|Achieved Occupancy|Registers Per|Block Size|Warp Cycles Per Issued|Theoretical Occ" "$w/ncu-$prec.txt" | tr -s ' ' | tr '\n' ';')" | tee -a "$w/side.md"
    done
fi
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && cp "$w/side.md" "$OUT/call1-side.md" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
