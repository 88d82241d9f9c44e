#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): the final tree's CUDA tests (nmodl.cuda with tpulse.mod's ELECTRODE_CURRENT among the test mechanisms), then the L5PC comparison and ci/t-compare.sh (t and ELECTRODE_CURRENT in whole simulations against NEURON's committed runs) on CUDA.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-28-t/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
HB_GPU_TEST_LABELS=cuda HB_CALL_S=${HB_CALL_S:-120} bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?"
grep -E "ctest|build:" "$OUT/t/summary.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
export CUDA=ON JOBS=16 HB_GPU_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=$arch"
sed -i "s|-DHINESBATCH_WITH_CUDA=\"\${CUDA:-OFF}\"|-DHINESBATCH_WITH_CUDA=\"\${CUDA:-OFF}\" -DCMAKE_CUDA_ARCHITECTURES=$arch|" ci/l5pc-compare.sh
BUILD=build-l5pc-gpu timeout 200 bash ci/l5pc-compare.sh cuda 2>&1 | tail -3 | tee "$OUT/l5pc-cuda.md"
timeout 100 bash ci/t-compare.sh build-l5pc-gpu cuda 2>&1 | tee "$OUT/t-compare-cuda.md"
echo "t-compare cuda: status ${PIPESTATUS[0]}"
