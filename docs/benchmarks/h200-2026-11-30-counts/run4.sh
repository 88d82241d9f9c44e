#!/usr/bin/env bash
# run4.sh: fourth device call of this record (H200): the session's last tree, `ctest -L cuda` whole and `ctest -L opencl -R "net|sim"` on NVIDIA's OpenCL. Output in call4-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-counts/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
mkdir -p /tmp/icd /tmp/r4
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
cmake -S . -B /tmp/r4/b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >/tmp/r4/build.log 2>&1 && cmake --build /tmp/r4/b -j 16 >>/tmp/r4/build.log 2>&1 ||
    { tail -20 /tmp/r4/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
(cd /tmp/r4/b && timeout 300 ctest -L cuda -j 4 --output-on-failure >"$OUT/call4-ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$OUT/call4-ctest-cuda.txt")"
(cd /tmp/r4/b && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 240 ctest -L opencl -R "net|sim" \
    --output-on-failure >"$OUT/call4-ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, net|sim): $(grep -E 'tests passed|tests failed' "$OUT/call4-ctest-opencl.txt")"
echo "done in $(($(date +%s) - t0)) s"
