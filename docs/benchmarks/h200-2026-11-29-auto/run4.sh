#!/usr/bin/env bash
# run4.sh: the fourth device call of this record (H200): the OpenCL rule for stage vx (api/sim/sim.c, epoch_launch) checked: `hinesbatch simulate` of 10,000 and 1,000 CA1 cells in double on NVIDIA's OpenCL under AUTO and with the launch before forced (96 work-items, stage none), and 10,000 on CUDA under AUTO; `ctest -R sim` on both labels if time is left. Output on stdout.
# Usage, from the repository root on the GPU machine: bash docs/benchmarks/h200-2026-11-29-auto/run4.sh
set -u
t0=$(date +%s)
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export HINESBATCH_OPENCL_PLATFORM=NVIDIA
cl=""
[ -e /usr/include/CL/cl.h ] || cl="-DOpenCL_INCLUDE_DIR=/usr/local/cuda/include -DOpenCL_LIBRARY=$(find /usr/local/cuda/lib64/ /usr/local/cuda/targets/*/lib/ -maxdepth 1 -name 'libOpenCL.so*' 2>/dev/null | sed -n 1p)"
# shellcheck disable=SC2086 # cl is a list of words
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" $cl >/tmp/b.log 2>&1 && cmake --build /tmp/b -j 16 --target hinesbatch_cli >>/tmp/b.log 2>&1 ||
    { tail -20 /tmp/b.log; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
B=/tmp/b/apps/hinesbatch
sim() { # sim BACKEND CELLS TAG [ENV...] -- [ARGS...]
    local be=$1 n=$2 tag=$3
    shift 3
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    out=$(env HINESBATCH_BACKEND=$be "${envs[@]}" timeout 40 $B simulate --cells "$n" --engine cells \
        --precision double --record 4 --no-split --csv /dev/null "$@" 2>&1)
    echo "$be $n $tag: $(echo "$out" | sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p') ($(echo "$out" | grep -o 'one work-group of [0-9]* work-items[^)]*' | head -1))"
}
for round in 1 2; do
    sim opencl 10000 auto --
    sim opencl 10000 96none HINESBATCH_EPOCH_STAGE=none -- --group-size 96
    sim opencl 1000 auto --
    sim opencl 1000 96none HINESBATCH_EPOCH_STAGE=none -- --group-size 96
done
sim cuda 10000 auto --
echo "done in $(($(date +%s) - t0)) s"
