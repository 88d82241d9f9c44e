#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200), issue 17: is NVIDIA's OpenCL slower than CUDA on the resident Thomas kernel in the kernel itself or around it? coopl_probe.cu and coopl_probe.c run the kernel outside the library at the plans' own launch shapes (call 2's bench logs), device time (events) and host time of launch + wait side by side, the registers-matched OpenCL variant (-DHB_COOPL_NOUNROLL -DHB_COOPL_BATCH=1) too. Comes back in call3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-sass/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
r=docs/benchmarks/h200-2026-11-30-sass
w=$OUT/call3
mkdir -p "$w" /tmp/icd
# The HB_COOPL_NOUNROLL hooks the variants use (in the working tree during the recorded call).
git apply "$r/nounroll.diff" || exit 1
t0=$(date +%s)
limit=${HB_CALL_S:-300}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
gcc -std=c11 -O2 "$r/coopl_probe.c" -o /tmp/probe_cl -lOpenCL || exit 1
nvcc -O3 -arch=sm_$arch -fmad=false -std=c++14 -Ibackend_cuda -Ikernels_cl "$r/coopl_probe.cu" -o /tmp/probe_cu || exit 1
echo "built after $(($(date +%s) - t0)) s"
for round in 1 2; do
    for p in double float; do
        for pt in "256 64 64 2 3" "2560 64 16 8 5" "25600 64 8 16 9" "256 512 128 1 5" "2560 512 64 2 9" \
            "25600 512 64 2 9" "256000 512 64 2 9"; do
            [ "$(left)" -gt 20 ] || continue
            reps=200
            [ "${pt%% *}" = 256000 ] && reps=40
            timeout 60 /tmp/probe_cu $p $pt $reps 2>&1
            timeout 60 /tmp/probe_cl "$PWD/kernels_cl" $p $pt $reps 2>&1
            case "$pt" in 2560*|25600\ 64*)
                timeout 60 /tmp/probe_cl "$PWD/kernels_cl" $p $pt $reps "-DHB_COOPL_NOUNROLL -DHB_COOPL_BATCH=1" 2>&1 ;;
            esac
        done
    done
done | tee "$w/probe.txt"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
