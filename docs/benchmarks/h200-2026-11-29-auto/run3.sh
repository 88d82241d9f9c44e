#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200): the final tree: `ci/gpu.sh --tests` with the opencl (NVIDIA's platform) and cuda labels; then `hinesbatch simulate` of 10,000 CA1 cells in double on NVIDIA's OpenCL under AUTO and with stage vx forced at 64 work-items. Everything comes back in call3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-auto/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call3
mkdir -p "$w"
t0=$(date +%s)
HB_GPU_TEST_LABELS="opencl cuda" HB_CALL_S=450 bash ci/gpu.sh --limit tests=400 --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (opencl, cuda): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:|Failed|Timeout|bit" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-cuda.log logs/ctest-opencl.log 2>/dev/null
rm -rf "$OUT/t"
[ -d build-gpu/icd ] && export OCL_ICD_VENDORS=$PWD/build-gpu/icd
export HINESBATCH_OPENCL_PLATFORM=NVIDIA
B=build-gpu/apps/hinesbatch
sim() { # sim TAG [ENV...] -- [ARGS...]
    local tag=$1
    shift
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    [ $(($(date +%s) - t0)) -lt 520 ] || { echo "sim $tag: skipped"; return; }
    env HINESBATCH_BACKEND=opencl "${envs[@]}" timeout 40 $B simulate --cells 10000 --engine cells \
        --precision double --record 4 --no-split --csv /dev/null "$@" >"$w/ocl-sim-$tag.out" 2>&1
    echo "ocl sim $tag: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/ocl-sim-$tag.out") ($(grep -o 'one work-group of [0-9]* work-items[^)]*' "$w/ocl-sim-$tag.out" | head -1))"
}
sim auto --
sim 64vx HINESBATCH_EPOCH_STAGE=vx -- --group-size 64
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
