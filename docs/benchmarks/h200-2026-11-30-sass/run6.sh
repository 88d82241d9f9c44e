#!/usr/bin/env bash
# run6.sh: the sixth device call of this record (H200), issue 17: the library's bench on NVIDIA's OpenCL stays 12-18% behind CUDA at one plan (call 5), where the probes' raw launch + wait was within 0-3 us. The bench writes the right-hand side from the host before each solve; here both probes with d refreshed by a device copy and by a blocking host write, side by side, no profiling queue, two rounds. Comes back in call6.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-sass/run6.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
r=docs/benchmarks/h200-2026-11-30-sass
w=$OUT/call6
mkdir -p "$w" /tmp/icd
t0=$(date +%s)
limit=${HB_CALL_S:-150}
left() { echo $((limit - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd PROBE_PROFILE=0
gcc -std=c11 -O2 "$r/coopl_probe.c" -o /tmp/probe_cl -lOpenCL || exit 1
nvcc -O3 -arch=sm_$arch -fmad=false -std=c++14 -Ibackend_cuda -Ikernels_cl "$r/coopl_probe.cu" -o /tmp/probe_cu || exit 1
for round in 1 2; do
    for pt in "double 256 64 64 2 3" "float 256 64 64 2 3" "double 2560 512 64 2 9" "float 2560 512 64 2 9" \
        "float 25600 512 64 2 9"; do
        for rf in device host; do
            [ "$(left)" -gt 10 ] || continue
            PROBE_REFRESH=$rf timeout 20 /tmp/probe_cu $pt 200 2>&1
            PROBE_REFRESH=$rf timeout 20 /tmp/probe_cl "$PWD/kernels_cl" $pt 200 2>&1
        done
    done
done | tee "$w/probe.txt"
tar -czf "$OUT/call6.tar.gz" -C "$OUT" call6 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
