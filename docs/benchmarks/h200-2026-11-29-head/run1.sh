#!/usr/bin/env bash
# run1.sh: the first device call of this record (H200): `ci/gpu.sh --tests` with the cuda and opencl labels (OpenCL on NVIDIA's platform) on this tree, then, in what time is left, `hinesbatch simulate` of 10,000 CA1 cells under AUTO on CUDA and NVIDIA's OpenCL (double) and Nsight Compute's warp states of the on-chip epoch at 10,000 cells. Everything comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-head/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call1
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-575}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$w/gpu.txt"
HB_GPU_TEST_LABELS="cuda opencl" HB_CALL_S=500 bash ci/gpu.sh --limit tests=440 --tests "$OUT/t" >"$w/gpu-sh.out" 2>&1
echo "gpu.sh --tests (cuda opencl): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:|Failed|Timeout|bit for bit|identical" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-cuda.log logs/ctest-opencl.log 2>/dev/null
rm -rf "$OUT/t"
B=build-gpu/apps/hinesbatch
lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd
sim() { # sim TAG BACKEND CELLS PRECISION: AUTO's engine and launch
    [ "$(left)" -gt 30 ] || { echo "sim $1: skipped"; return; }
    env OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$2 \
        timeout 40 $B simulate --cells "$3" --precision "$4" --record 4 --no-split --csv /dev/null >"$w/sim-$1.out" 2>&1
    echo "sim $1: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/sim-$1.out") ($(grep -o 'engine: [^;]*' "$w/sim-$1.out" | head -1 | cut -c1-150))"
}
sim cuda-10000-double cuda 10000 double
sim ocl-10000-double opencl 10000 double
sim ocl-2000-double opencl 2000 double
if command -v ncu >/dev/null && [ "$(left)" -gt 60 ]; then
    timeout $(($(left) - 15)) ncu --clock-control none -k regex:epoch --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        --section SchedulerStats --section InstructionStats \
        env HINESBATCH_BACKEND=cuda $B simulate --cells 10000 --precision double --tstop 0.5 --record 4 --no-split \
        --csv /dev/null >"$w/ncu-epoch-10000.txt" 2>&1
    echo "ncu epoch: status $?"
fi
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
