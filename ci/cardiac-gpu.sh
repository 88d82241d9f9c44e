#!/usr/bin/env bash
# cardiac-gpu.sh: the cardiac performance run on the GPU machine: 1,000,000 Luo-Rudy 1991 cells (0-D) and a batch of fibers, CUDA and NVIDIA OpenCL against OpenMP on every core, float and double, and Myokit's own OpenCL simulation of the same model on the same GPU (ci/myokit_gpu_bench.py); one table (markdown) in OUTDIR.
#
# Needs PyPI myokit and sympy (wheels in WHEELS=DIR where the machine has no
# network: pip install --no-index --find-links DIR) for the cardiac
# translator, which reads Luo-Rudy 1991 from the myokit package itself.
# Usage: bash ci/cardiac-gpu.sh OUTDIR   (BUILD=build-cardiac-gpu VENV=$BUILD/venv
#        WHEELS= CELLS=1000000 FIBERS=1024 NODES=1000 DT=0.01 MS=100 FIBER_MS=50
#        THREADS=$(nproc) BACKENDS="cuda opencl openmp" MYOKIT=1 (0: skip Myokit))
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$HB_ROOT"
OUT=${1:?usage: bash ci/cardiac-gpu.sh OUTDIR}
BUILD=${BUILD:-build-cardiac-gpu}
VENV=${VENV:-$BUILD/venv}
CELLS=${CELLS:-1000000}
FIBERS=${FIBERS:-1024}
NODES=${NODES:-1000}
DT=${DT:-0.01}
MS=${MS:-100}
FIBER_MS=${FIBER_MS:-50}
THREADS=${THREADS:-$(nproc)}
BACKENDS=${BACKENDS:-cuda opencl openmp}
mkdir -p "$OUT" "$BUILD"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import myokit, sympy" 2>/dev/null; then
    python3 -m venv --system-site-packages "$VENV"
    if [ -n "${WHEELS:-}" ]; then
        "$VENV/bin/pip" install -q --no-index --find-links "$WHEELS" myokit sympy
    else
        "$VENV/bin/pip" install -q myokit sympy
    fi
fi
PY="$VENV/bin/python"
data=$("$PY" -c "import myokit, os; print(os.path.join(os.path.dirname(myokit.__file__), 'tests', 'data'))")
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
    ${arch:+-DCMAKE_CUDA_ARCHITECTURES=$arch} -DHINESBATCH_CARDIAC_PYTHON="$PY" \
    -DHINESBATCH_CARDIAC_MODELS="lr1991=$data/lr-1991.mmt" >"$OUT/configure.log" 2>&1
cmake --build "$BUILD" -j"$(hb_jobs)" --target hinesbatch_cli >"$OUT/build.log" 2>&1
exe="$BUILD/apps/hinesbatch"
table="$OUT/cardiac-gpu.md"
{
    echo "# Cardiac cells on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%F)"
    echo
    echo "Luo-Rudy 1991 (Myokit's lr-1991.mmt), dt $DT ms, paced (0.5 ms at -80 uA/cm2, period 1000 ms);"
    echo "OpenMP: $THREADS threads (OMP_PROC_BIND=close). Time excludes the kernels' build (a 10-step warm-up)."
    echo
    echo "| workload | backend | precision | cells | steps | time (s) | cell-steps/s |"
    echo "|---|---|---|---|---|---|---|"
} >"$table"
run() { # workload backend precision cells args...
    local w=$1 b=$2 p=$3 n=$4
    shift 4
    local log="$OUT/$w-$b-$p.log"
    if OMP_NUM_THREADS=$THREADS OMP_PROC_BIND=close "$exe" cardiac --model lr1991 --backend "$b" \
            --precision "$p" --cells "$n" --dt "$DT" --stim-duration 0.5 --record none "$@" \
            >"$log" 2>&1; then
        local steps secs rate
        steps=$(sed -n 's/.* \([0-9]*\) steps, on .*/\1/p' "$log")
        secs=$(sed -n 's/^time \([0-9.]*\) s.*/\1/p' "$log")
        rate=$(sed -n 's/^time [0-9.]* s, \([0-9.e+]*\) cell-steps.*/\1/p' "$log")
        echo "| $w | $b | $p | $n | $steps | $secs | $rate |" >>"$table"
    else
        echo "| $w | $b | $p | $n | failed: $(tail -1 "$log") | | |" >>"$table"
    fi
}
for p in float double; do
    for b in $BACKENDS; do
        run 0-D "$b" "$p" "$CELLS" --duration "$MS"
    done
    for b in $BACKENDS; do
        run "fibers ${FIBERS}x$NODES" "$b" "$p" $((FIBERS * NODES)) --fiber "$NODES" \
            --duration "$FIBER_MS" --cv-nodes $((NODES / 4)),$((3 * NODES / 4))
    done
done
if [ "${MYOKIT:-1}" = 1 ]; then
    echo >>"$table"
    echo "Myokit $("$PY" -c 'import myokit; print(myokit.__version__)') SimulationOpenCL on the same GPU (NVIDIA OpenCL), the same model, dt and duration:" >>"$table"
    echo >>"$table"
    "$PY" ci/myokit_gpu_bench.py --cells "$CELLS" --fibers "$FIBERS" --nodes "$NODES" --dt "$DT" \
        --ms "$MS" --fiber-ms "$FIBER_MS" >>"$table" 2>"$OUT/myokit.log" ||
        echo "Myokit failed: $OUT/myokit.log" >>"$table"
fi
cat "$table"
