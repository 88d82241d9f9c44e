#!/usr/bin/env bash
# myokit-compare.sh: Beeler-Reuter 1977, Luo-Rudy 1991 and Decker 2009 from the installed Myokit package, built into the cardiac catalogue and run by `hinesbatch cardiac` on serial, OpenMP and OpenCL (PoCL), double and float, against Myokit's own CVODE simulation (ci/myokit_compare.py): a table; bounds rest and peak 1 mV, APD90 1%.
#
# Makes (or reuses, VENV=) a venv with PyPI myokit (its CVODE simulation compiles
# C at run time against libsundials-dev, which ci/setup.sh installs), configures
# $BUILD with -DHINESBATCH_CARDIAC_MODELS naming the three files inside that
# package (never copied into this repository), builds the program and compares.
#
# Usage: bash ci/myokit-compare.sh [serial|openmp|opencl|cuda ...]   (BUILD=build-myokit
#        VENV=$BUILD/venv PRECISIONS=double,float DT=0.005 JOBS=2 CV=--cv (CV= skips the
#        fibers, which need an OpenCL device for Myokit) CUDA=OFF: ON or AUTO
#        builds the CUDA backend, for `cuda` on a GPU machine)
# Exit status: 0 when every run is within the bounds, 1 when one is not, 2 when
# the venv or the build fails.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$HB_ROOT"
BUILD=${BUILD:-build-myokit}
VENV=${VENV:-$BUILD/venv}
PRECISIONS=${PRECISIONS:-double,float}
DT=${DT:-0.005}
JOBS=${JOBS:-2}
BACKENDS=("$@")
[ ${#BACKENDS[@]} -gt 0 ] || BACKENDS=(serial openmp opencl)
mkdir -p "$BUILD"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import myokit, sympy" 2>/dev/null; then
    # System site packages: sympy (python3-sympy) and numpy come from Debian.
    if ! /usr/bin/python3 -m venv --system-site-packages "$VENV" >"$BUILD.venv.log" 2>&1 ||
        ! "$VENV/bin/pip" install -q myokit >>"$BUILD.venv.log" 2>&1; then
        echo "myokit-compare: could not make a venv with myokit: $BUILD.venv.log" >&2
        exit 2
    fi
fi
PY="$VENV/bin/python"
data=$("$PY" -c "import myokit, os; print(os.path.join(os.path.dirname(myokit.__file__), 'tests', 'data'))")
models="br1977=$data/beeler-1977-model.mmt;lr1991=$data/lr-1991.mmt;decker2009=$data/decker-2009.mmt"
if ! cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA="${CUDA:-OFF}" \
        -DHINESBATCH_CARDIAC_PYTHON="$PY" -DHINESBATCH_CARDIAC_MODELS="$models" \
        >"$BUILD.configure.log" 2>&1 ||
    ! cmake --build "$BUILD" -j"$JOBS" --target hinesbatch_cli >"$BUILD.build.log" 2>&1; then
    echo "myokit-compare: the build failed: $BUILD.configure.log, $BUILD.build.log" >&2
    exit 2
fi
# shellcheck source=ci/opencl-env.sh
. ci/opencl-env.sh "$BUILD" >/dev/null
backends=$(IFS=,; echo "${BACKENDS[*]}")
"$PY" ci/myokit_compare.py --hinesbatch "$BUILD/apps/hinesbatch" --backends "$backends" \
    --precisions "$PRECISIONS" --dt "$DT" --out "$BUILD/myokit-compare" ${CV:---cv}
