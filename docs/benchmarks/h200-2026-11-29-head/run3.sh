#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200): the L5PC model against NEURON's reference on CUDA (ci/l5pc-compare.sh, whose build also carries the t checks' .mod files, cashells.mod among them), then every half of ci/t-compare.sh (t, TPulse, diam, pool, area, arrays) on CUDA and, in what time is left, on NVIDIA's OpenCL. Everything comes back in call3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-head/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call3
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-565}
left() { echo $((limit - ($(date +%s) - t0))); }
CUDAARCHS=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
export CUDAARCHS
CUDA=ON BUILD=build-l5pc-gpu JOBS=16 timeout 300 bash ci/l5pc-compare.sh cuda >"$w/l5pc-cuda.md" 2>&1
echo "l5pc-compare cuda: status $?, $(($(date +%s) - t0)) s"
grep -E "^\| cuda" "$w/l5pc-cuda.md" | cut -c1-200
OUT=/tmp/tc-cuda timeout $(($(left) - 30)) bash ci/t-compare.sh build-l5pc-gpu cuda >"$w/t-compare-cuda.md" 2>&1
echo "t-compare cuda: status $?, $(($(date +%s) - t0)) s; $(grep -c '| yes |' "$w/t-compare-cuda.md") runs within bounds, $(grep -c '| NO |' "$w/t-compare-cuda.md") not"
grep -E "cashells" "$w/t-compare-cuda.md" | head -8
lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd
if [ "$(left)" -gt 120 ]; then
    OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA OUT=/tmp/tc-ocl \
        timeout $(($(left) - 20)) bash ci/t-compare.sh build-l5pc-gpu opencl >"$w/t-compare-opencl.md" 2>&1
    echo "t-compare opencl (NVIDIA): status $?, $(($(date +%s) - t0)) s; $(grep -c '| yes |' "$w/t-compare-opencl.md") runs within bounds, $(grep -c '| NO |' "$w/t-compare-opencl.md") not"
fi
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
