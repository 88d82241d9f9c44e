#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200), on the tree with the currents kept again after the state step (HB_CAT_KEEPAFTER): ci/gpu.sh's build and its nmodl and cuda labels (the generated mechanisms, tests/nmodl/mod/vstep.mod among them, on CUDA and OpenCL against the host); then a build whose catalogue carries the t checks' .mod files (as ci/l5pc-compare.sh configures it, CUDA on) and ci/t-compare.sh on CUDA (every half: t, TPulse, VStep, diam, pool, area, arrays, gclamp) and, in what time is left, on NVIDIA's OpenCL. Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-vstep/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-565}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mechs="$(ls "$PWD"/data/models/l5pc/mod/*.mod | tr '\n' ';')"
for m in tdrive tpulse vstep cal cashell cpool karea cashells gclamp; do mechs="$mechs$PWD/tests/nmodl/mod/$m.mod;"; done
# OpenCL's headers and library from CUDA where the system has none (as ci/gpu.sh finds them).
cl=()
if [ ! -e /usr/include/CL/cl.h ]; then
    cuda=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
    cl=(-DOpenCL_INCLUDE_DIR="$cuda/include"
        -DOpenCL_LIBRARY="$(find "$cuda/lib64/" "$cuda"/targets/*/lib/ -maxdepth 1 -name 'libOpenCL.so*' 2>/dev/null | sed -n 1p)")
fi
(cmake -S . -B build-l5pc-gpu -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DHINESBATCH_MECHANISMS="${mechs%;}" "${cl[@]}" >"$w/l5pc-gpu.log" 2>&1 &&
    cmake --build build-l5pc-gpu -j 8 --target hinesbatch_cli hinesbatch_static >>"$w/l5pc-gpu.log" 2>&1
    echo "catalogue build: status $?, $(($(date +%s) - t0)) s") &
p1=$!
HB_GPU_TEST_LABELS="nmodl cuda" bash ci/gpu.sh --limit tests=300 --tests "$OUT/t" >"$w/gpu-sh.out" 2>&1
echo "gpu.sh --tests (nmodl cuda): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-nmodl.log logs/ctest-cuda.log 2>/dev/null
rm -rf "$OUT/t"
wait $p1
lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
[ -n "$lib" ] || lib=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 2>/dev/null)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
OUT=/tmp/tc-cuda timeout $(($(left) - 20)) bash ci/t-compare.sh build-l5pc-gpu cuda >"$w/t-compare-cuda.md" 2>&1
echo "t-compare cuda: status $?, $(($(date +%s) - t0)) s; $(grep -c '| yes |' "$w/t-compare-cuda.md") runs within bounds, $(grep -c '| NO |' "$w/t-compare-cuda.md") not"
grep -E "vstep|gclamp" "$w/t-compare-cuda.md" | head -10
if [ "$(left)" -gt 150 ]; then
    OUT=/tmp/tc-ocl timeout $(($(left) - 20)) bash ci/t-compare.sh build-l5pc-gpu opencl >"$w/t-compare-opencl.md" 2>&1
    echo "t-compare opencl (NVIDIA): status $?, $(($(date +%s) - t0)) s; $(grep -c '| yes |' "$w/t-compare-opencl.md") runs within bounds, $(grep -c '| NO |' "$w/t-compare-opencl.md") not"
fi
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
