#!/usr/bin/env bash
# run4.sh: the fourth device call of this record (H200), issue 17: call 3 found NVIDIA's OpenCL running the resident Thomas kernel as fast as CUDA and losing its time around it (enqueue + clFinish 13-16 us past the kernel, CUDA's launch + synchronize 6-7 us). The OpenCL probe's waits side by side (clFinish with and without a profiling queue, clWaitForEvents, polling the launch's status); and the registers-matched variant (-DHB_COOPL_NOUNROLL -DHB_COOPL_BATCH=1, faster on OpenCL in float) built for CUDA beside CUDA's kernel. Comes back in call4.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-sass/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
r=docs/benchmarks/h200-2026-11-30-sass
w=$OUT/call4
mkdir -p "$w" /tmp/icd
# The HB_COOPL_NOUNROLL hooks the variants use (in the working tree during the recorded call).
git apply "$r/nounroll.diff" || exit 1
t0=$(date +%s)
limit=${HB_CALL_S:-280}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
gcc -std=c11 -O2 "$r/coopl_probe.c" -o /tmp/probe_cl -lOpenCL || exit 1
nvcc -O3 -arch=sm_$arch -fmad=false -std=c++14 -Ibackend_cuda -Ikernels_cl "$r/coopl_probe.cu" -o /tmp/probe_cu || exit 1
nvcc -O3 -arch=sm_$arch -fmad=false -std=c++14 -Ibackend_cuda -Ikernels_cl -DHB_COOPL_NOUNROLL -DHB_COOPL_BATCH=1 \
    "$r/coopl_probe.cu" -o /tmp/probe_cu_v -Xptxas -v >"$w/ptxas-v.txt" 2>&1 || exit 1
grep -h "Used" "$w/ptxas-v.txt"
echo "built after $(($(date +%s) - t0)) s"
for round in 1 2; do
    for p in double float; do
        for pt in "256 64 64 2 3" "25600 64 8 16 9" "2560 512 64 2 9" "25600 512 64 2 9"; do
            [ "$(left)" -gt 20 ] || continue
            timeout 30 /tmp/probe_cu $p $pt 200 2>&1
            for wm in finish events spin; do
                PROBE_WAIT=$wm PROBE_PROFILE=0 timeout 30 /tmp/probe_cl "$PWD/kernels_cl" $p $pt 200 2>&1
            done
        done
        for pt in "2560 512 64 2 9" "25600 512 64 2 9" "256000 512 64 2 9" "25600 64 8 16 9"; do
            [ "$(left)" -gt 20 ] || continue
            reps=200
            [ "${pt%% *}" = 256000 ] && reps=40
            timeout 60 /tmp/probe_cu $p $pt $reps 2>&1
            timeout 60 /tmp/probe_cu_v $p $pt $reps 2>&1 | sed 's/^cuda/cuda NOUNROLL+BATCH1/'
        done
    done
done | tee "$w/probe.txt"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
