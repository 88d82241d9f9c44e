#!/usr/bin/env bash
# run.sh: the device call of this record (H200): build and CUDA tests (ci/gpu.sh), test_shared_couplings on NVIDIA's OpenCL, and per-system Hines with and without shared couplings side by side (CA1 cell, 728 rows).
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-28-shared/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
HB_GPU_TEST_LABELS=cuda HB_CALL_S=${HB_CALL_S:-130} bash ci/gpu.sh --tests "$OUT/t"
echo "gpu.sh --tests (cuda): status $?"
B=build-gpu/apps/hinesbatch
[ -d build-gpu/icd ] && export OCL_ICD_VENDORS=$PWD/build-gpu/icd
HINESBATCH_BACKEND=opencl timeout 90 build-gpu/tests/test_shared_couplings >"$OUT/ocl-shared.txt" 2>&1
echo "test_shared_couplings on NVIDIA OpenCL: status $?; $(tail -1 "$OUT/ocl-shared.txt")"
# The same points three ways in one run: per-system forced with the couplings
# per system, per-system with them shared, and AUTO (double only).
pts=(--backend cuda --kind hines --morphology nrn__c91662 --serial-max-rows 0 --max-seconds 40)
for prec in double float; do
    sys=2560,25600,256000
    [ "$prec" = float ] && sys=256000
    timeout 100 "$B" bench "${pts[@]}" --precision "$prec" --systems "$sys" --strategy per-system \
        --csv "$OUT/per-system-$prec.csv" 2>"$OUT/per-system-$prec.log"
    timeout 100 "$B" bench "${pts[@]}" --precision "$prec" --systems "$sys" --strategy per-system \
        --shared-couplings --csv "$OUT/shared-$prec.csv" 2>"$OUT/shared-$prec.log"
done
for f in "$OUT"/per-system-*.csv "$OUT"/shared-*.csv; do
    cut -d, -f1,4,5,6,7,11,14,15,16,18 "$f" | sed 1d
done
# The main job side by side (CUDA, NVIDIA OpenCL, OpenMP on every core).
timeout 80 bash ci/gpu-sim.sh 200 "$OUT/sim" >/dev/null 2>&1
echo "gpu-sim.sh 200: status $?"
cat "$OUT/sim/sim.md" 2>/dev/null | cut -d'|' -f2-6
