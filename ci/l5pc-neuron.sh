#!/usr/bin/env bash
# l5pc-neuron.sh: the NEURON 9 reference run of the L5PC model description (ci/l5pc-neuron.py) in a venv with PyPI `neuron`: soma trace and spike times of a somatic current step, as CSV.
#
# Compiles data/models/l5pc/mod/*.mod with NEURON's nrnivmodl, loads
# data/morphologies/jaxley__morph_l5pc_with_axon.swc with Import3d, applies
# data/models/l5pc/l5pc.json (docs/mechanisms.md, "Model description files")
# and runs a 0.8 nA step at the soma from 100 to 600 ms (dt 0.025 ms, backward
# Euler, 34 degC). Writes $OUT/l5pc_soma.csv (t, v, cai, currents at the soma, every
# step), $OUT/l5pc_spikes.csv (upward crossings of 0 mV, interpolated) and
# $OUT/l5pc_summary.json. Arguments go to ci/l5pc-neuron.py (--amp, --delay,
# --dur, --tstop, --dt, --threshold, --model).
#
# Usage: bash ci/l5pc-neuron.sh [--amp 0.8 ...]   (BUILD=build-neuron-check VENV=$BUILD/venv
#        OUT=$BUILD/l5pc-neuron)
# Needs python3 with venv, a C compiler and network access to PyPI (once).
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$HB_ROOT"
BUILD=${BUILD:-build-neuron-check}
VENV=${VENV:-$BUILD/venv}
OUT=${OUT:-$BUILD/l5pc-neuron}
mkdir -p "$BUILD" "$OUT"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import neuron' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q neuron numpy
fi
# nrnivmodl comes with the venv's NEURON.
PATH="$(cd "$VENV/bin" && pwd):$PATH" "$VENV/bin/python" ci/l5pc-neuron.py \
    --out "$(cd "$OUT" && pwd)" "$@"
