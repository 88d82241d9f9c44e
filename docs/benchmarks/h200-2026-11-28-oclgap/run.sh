#!/usr/bin/env bash
# run.sh: the first device call of this record (H200): build and CUDA tests (ci/gpu.sh), then the main job (200 CA1 cells, 50 ms, double) on CUDA and NVIDIA OpenCL side by side, each alternated three times, with the time split, and NVIDIA OpenCL again with extra build options (-cl-nv-maxrregcount, -cl-nv-opt-level) through a patch applied only on the device copy.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-28-oclgap/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
HB_GPU_TEST_LABELS=cuda HB_CALL_S=${HB_CALL_S:-150} bash ci/gpu.sh --tests "$OUT/t"
echo "gpu.sh --tests (cuda): status $?"
B=build-gpu/apps/hinesbatch
. ci/opencl-env.sh build-gpu >/dev/null 2>&1
[ -d build-gpu/icd ] && export OCL_ICD_VENDORS=$PWD/build-gpu/icd
job=(simulate --cells 200 --engine cells --precision double --record 4 --csv /dev/null)
run() { # LABEL BACKEND [EXTRA...]: the rate without the split waits, then the split
    local lab=$1 be=$2
    shift 2
    local r s
    r=$(HINESBATCH_BACKEND=$be timeout 60 "$B" "${job[@]}" --no-split "$@" 2>&1 | sed -n 's/^performance: \([^ ]*\) .*/\1/p')
    s=$(HINESBATCH_BACKEND=$be timeout 60 "$B" "${job[@]}" "$@" 2>&1 | sed -n 's/^performance: .*s); \(.*\)/\1/p')
    echo "| $lab | $r | $s |" | tee -a "$OUT/main-job.md"
}
echo "| run | compartment-steps/s (--no-split) | split (second run) |" >"$OUT/main-job.md"
echo "|---|---|---|" >>"$OUT/main-job.md"
for i in 1 2 3; do
    run "cuda #$i" cuda
    run "opencl #$i" opencl
done
run "cuda --epoch 400" cuda --epoch 400
run "opencl --epoch 400" opencl --epoch 400
run "cuda float" cuda --precision float
run "opencl float" opencl --precision float
# NVIDIA OpenCL with extra build options: a patch on this copy only.
sed -i 's|err = clBuildProgram(prog, 1, &cl->device, opts, NULL, NULL);|char hb_xo[512]; snprintf(hb_xo, sizeof hb_xo, "%s %s", opts, getenv("HB_XCLOPTS") ? getenv("HB_XCLOPTS") : ""); err = clBuildProgram(prog, 1, \&cl->device, hb_xo, NULL, NULL);|' backend_opencl/program.c
grep -c hb_xo backend_opencl/program.c
cmake --build build-gpu -j 16 --target hinesbatch_cli >/dev/null 2>&1 || cmake --build build-gpu -j 16 >/dev/null 2>&1
echo "rebuilt: $?"
for o in "-cl-nv-maxrregcount=64" "-cl-nv-maxrregcount=96" "-cl-nv-maxrregcount=128" "-cl-nv-maxrregcount=168" "-cl-nv-opt-level=3"; do
    HB_XCLOPTS="$o" run "opencl $o" opencl
done
lib=$(find build-gpu -name 'libhinesbatch.so*' -type f | head -1)
cuobjdump --dump-resource-usage "$lib" 2>/dev/null | grep -A1 -i "epoch" | head -20
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
