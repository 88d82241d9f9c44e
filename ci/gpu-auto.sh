#!/bin/bash
# gpu-auto.sh: on the GPU machine: the CUDA tests of plans and strategies, then the points that set the AUTO strategy's per-system threshold.
# Usage: ci/gpu-auto.sh OUTDIR   (writes OUTDIR/auto.csv, OUTDIR/auto.txt)
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: ci/gpu-auto.sh OUTDIR}
build=$src/build-gpu-auto
mkdir -p "$out" "$build"
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
{
    echo "date $(date -u +%Y-%m-%dT%H:%MZ); $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
        -DHINESBATCH_WITH_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES="$cc" >"$build/configure.log" 2>&1 &&
        cmake --build "$build" -j"$(nproc)" >"$build/build.log" 2>&1
    echo "build rc $?"
    (cd "$build" && timeout 200 ctest -L cuda -j8 --timeout 190 --output-on-failure) >"$build/ctest.log" 2>&1
    grep -E "tests passed|Failed|Timeout" "$build/ctest.log"
    timeout 240 "$build/apps/hinesbatch" bench --kind hines --backend cuda --precision double \
        --strategy per-system,branch-level,fine-tree,auto --max-seconds 200 --wall-cap 0.4 \
        --target-s 0.1 --serial-max-rows 1 --max-rows 268435456 \
        --systems 65536,131072,262144 --morphology levels:512:4,jaxley__morph_minimal \
        --csv "$out/auto.csv"
    echo "bench rc $?"
} >"$out/auto.txt" 2>&1
cat "$out/auto.txt" | grep -v "^bench: cuda" | tail -30
