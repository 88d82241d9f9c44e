#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200): the tree after the change, built by ci/gpu.sh (no tests), then `hinesbatch simulate` under AUTO: the main job (200 CA1 cells, double) on CUDA and OpenMP (16 threads), and 10,000 cells on CUDA in double and float, two rounds; the figures of issue 18 after the engines' state passes changed (a flag test per mechanism). Everything comes back in call3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-vstep/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call3
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-400}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$w/gpu.txt"
HB_GPU_TEST_LABELS="none" bash ci/gpu.sh --limit tests=30 --tests "$OUT/t" >"$w/gpu-sh.out" 2>&1
echo "gpu.sh build: $(grep -o 'build: status [0-9]*' "$w/gpu-sh.out"), $(($(date +%s) - t0)) s"
rm -rf "$OUT/t"
B=build-gpu/apps/hinesbatch
sim() { # sim TAG BACKEND CELLS PRECISION
    [ "$(left)" -gt 40 ] || { echo "sim $1: skipped"; return; }
    OMP_PROC_BIND=close HINESBATCH_BACKEND=$2 timeout 60 $B simulate --cells "$3" --precision "$4" --record 4 \
        --no-split --csv /dev/null >"$w/sim-$1.out" 2>&1
    echo "sim $1: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/sim-$1.out")"
}
for round in 1 2; do
    sim cuda-200-double-$round cuda 200 double
    sim openmp-200-double-$round openmp 200 double
    sim cuda-10000-double-$round cuda 10000 double
    sim cuda-10000-float-$round cuda 10000 float
done
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
