#!/usr/bin/env bash
# peer-arbor-sim.sh: Arbor 0.12.2 (PyPI) against `hinesbatch simulate` (serial, OpenMP; idle and under load) on copies of one neuron: ci/peer-arbor-sim.py in its own virtual environment.
#
# Makes $VENV (python3 -m venv; pip install arbor==0.12.2: needs PyPI once),
# builds the program in $BUILD (Release, CPU backends only) when it is
# missing, then runs ci/peer-arbor-sim.py with the arguments given (its docstring
# and --help list them: --cells 400, --nseg 5, --swc, --reps, --no-load, --out).
# Not part of the test suite: it takes minutes and the network. Timings need
# a machine otherwise idle; the report prints the load average.
#
# Usage: bash ci/peer-arbor-sim.sh [peer-arbor-sim.py options]
#        (BUILD=build-peer VENV=$BUILD/venv)
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case "${1:-}" in -h | --help) hb_usage; exit 0 ;; esac
cd "$HB_ROOT"
BUILD=${BUILD:-build-peer}
VENV=${VENV:-$BUILD/venv}
if [ ! -x "$BUILD/apps/hinesbatch" ]; then
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=OFF \
        -DHINESBATCH_WITH_OPENCL=OFF -DHINESBATCH_BUILD_TESTS=OFF >/dev/null
    cmake --build "$BUILD" -j"$(hb_jobs)" --target hinesbatch_cli >/dev/null
fi
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import arbor' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q arbor==0.12.2
fi
exec "$VENV/bin/python" ci/peer-arbor-sim.py --hinesbatch "$BUILD/apps/hinesbatch" "$@"
