#!/bin/bash
# gpu-strategies.sh: on the GPU machine: build the CLI and time the Hines strategies at chosen points (issue 6's grid, one call).
# Usage: ci/gpu-strategies.sh OUTDIR SECONDS "SYSTEMS=MORPH,MORPH" ["SYSTEMS=MORPH" ...]
# Each group runs per-system, branch-level, fine-tree and auto on cuda, NVIDIA
# OpenCL and OpenMP (16 cores), double, and appends to OUTDIR/strategies.csv;
# SECONDS is the time for all groups (points left are listed as skipped).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: ci/gpu-strategies.sh OUTDIR SECONDS GROUP...}
secs=${2:?seconds}
shift 2
build=${HB_GPU_BUILD_DIR:-$src/build-gpu-bench}
mkdir -p "$out" "$build"
log=$out/strategies.log
t0=$(date +%s)
say() { echo "gpu-strategies: $*" | tee -a "$log"; }
# The device machine's copy of the tree has no .git: pass HB_COMMIT=<hash>.
say "date $(date -u +%Y-%m-%dT%H:%MZ), commit ${HB_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
say "GPU: $(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | head -1)"
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
. "$src/ci/nvidia-icd.sh" "$build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
    -DHINESBATCH_WITH_OPENCL=ON -DHINESBATCH_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES="$cc" \
    ${HB_CL_CMAKE_ARGS:-} >"$build/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target hinesbatch_cli >>"$build/build.log" 2>&1 ||
    { tail -30 "$build/build.log" | tee -a "$log"; exit 1; }
export HINESBATCH_OPENCL_PLATFORM=NVIDIA OMP_PROC_BIND=close
csv=$out/strategies.csv
: >"$csv"
for group in "$@"; do
    # What is left of the call, less 60 s for a point already started.
    left=$((secs - ($(date +%s) - t0) - 60))
    [ $left -gt 0 ] || { say "no time left for $group"; continue; }
    "$build/apps/hinesbatch" bench --kind hines --backend cuda,opencl,openmp --precision double \
        --strategy per-system,branch-level,fine-tree,auto --max-seconds "$left" --wall-cap 0.4 \
        --target-s 0.1 --serial-max-rows 1 --max-rows 2147483648 --seed 20261122 \
        --systems "${group%%=*}" --morphology "${group#*=}" --csv "$build/group.csv" 2>>"$log"
    say "group $group: rc $?, $(($(wc -l <"$build/group.csv") - 1)) rows"
    if [ -s "$csv" ]; then tail -n +2 "$build/group.csv"; else cat "$build/group.csv"; fi >>"$csv"
done
say "done in $(($(date +%s) - t0)) s"
