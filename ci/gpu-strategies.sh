#!/bin/bash
# gpu-strategies.sh: on the GPU machine: build the CLI and time the Hines strategies at chosen points (issue 6's grid, one call).
# Usage: ci/gpu-strategies.sh OUTDIR SECONDS "SYSTEMS=MORPH,MORPH" ["SYSTEMS=MORPH" ...]
# Each group runs per-system, branch-level, fine-tree and auto on the backends
# of HB_STRATEGY_BACKENDS (default cuda,opencl,openmp: NVIDIA OpenCL, OpenMP on
# every core), double, and appends to OUTDIR/strategies.csv (the bench CSV with
# a first column, morphology; read by apps/strategy_table.py); SECONDS is the
# time for all groups, the tests included (points left are listed as skipped).
# HB_STRATEGY_CTEST="cuda opencl" first builds the tests and runs those CTest
# labels, so one call checks and measures the same build.
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
labels=${HB_STRATEGY_CTEST:-}
tests=OFF target=(--target hinesbatch_cli)
[ -n "$labels" ] && tests=ON target=()
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
    -DHINESBATCH_WITH_OPENCL=ON -DHINESBATCH_BUILD_TESTS=$tests -DCMAKE_CUDA_ARCHITECTURES="$cc" \
    ${HB_CL_CMAKE_ARGS:-} >"$build/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" "${target[@]}" >>"$build/build.log" 2>&1 ||
    { tail -30 "$build/build.log" | tee -a "$log"; exit 1; }
say "built in $(($(date +%s) - t0)) s"
export HINESBATCH_OPENCL_PLATFORM=NVIDIA OMP_PROC_BIND=close
for label in $labels; do
    (cd "$build" && timeout 240 ctest -L "$label" -j8 --timeout 200 --output-on-failure) \
        >"$out/ctest-$label.log" 2>&1
    say "ctest -L $label: $(grep -E 'tests passed' "$out/ctest-$label.log" | tail -1)"
    grep -E "\(Failed\)|\(Timeout\)|\*\*\*" "$out/ctest-$label.log" | head -20 | tee -a "$log"
done
backends=${HB_STRATEGY_BACKENDS:-cuda,opencl,openmp}
say "backends $backends"
# strategies.csv: the bench CSV with the morphology in front (the bench's
# columns do not name it), one bench run per group and morphology.
csv=$out/strategies.csv
: >"$csv"
for group in "$@"; do
    IFS=, read -ra morphs <<<"${group#*=}"
    for morph in "${morphs[@]}"; do
        # What is left of the call, less 60 s for a point already started.
        left=$((secs - ($(date +%s) - t0) - 60))
        [ $left -gt 0 ] || { say "no time left for ${group%%=*} x $morph"; continue; }
        "$build/apps/hinesbatch" bench --kind hines --backend "$backends" --precision double \
            --strategy per-system,branch-level,fine-tree,auto --max-seconds "$left" --wall-cap 0.4 \
            --target-s 0.1 --serial-max-rows 1 --max-rows 2147483648 --seed 20261122 \
            --systems "${group%%=*}" --morphology "$morph" --csv "$build/group.csv" 2>>"$log"
        say "${group%%=*} x $morph: rc $?, $(($(wc -l <"$build/group.csv") - 1)) rows"
        [ -s "$csv" ] || sed -n '1s/^/morphology,/p' "$build/group.csv" >"$csv"
        tail -n +2 "$build/group.csv" | sed "s/^/$morph,/" >>"$csv"
    done
done
say "done in $(($(date +%s) - t0)) s"
