#!/usr/bin/env bash
# nmodl-neuron-check.sh: optional check of the mechanisms hb_nmodl generates against NEURON (PyPI `neuron`) running the same .mod files: steady states, currents and one step, every shipped, test and L5PC .mod file.
#
# tests/nmodl/neuron_compare.py translates data/mechanisms/*.mod,
# tests/nmodl/mod/*.mod and data/models/l5pc/mod/*.mod, builds their host
# functions in double as a shared library, compiles renamed copies with
# NEURON's nrnivmodl (NEURON has its own hh, pas, ExpSyn, Exp2Syn), and for
# each mechanism, at 45 voltages (-100..60 mV every 5 mV and the files' 0/0
# points) and 6.3 and 34 degC, compares: INITIAL's states, the BREAKPOINT's currents
# (fcurrent), g against the centred difference of NEURON's currents at
# v0 +- 0.001 mV (bound 1e-6), one fadvance from v0 to v0 + 13 mV (cm 1e9 holds v: the
# states and the RANGE values the mechanism keeps) and, for
# synapses, an event then a step, with TABLEs off (usetable = 0); mechanisms
# that read or integrate cai at six concentrations, one that reads ica beside
# one that writes it (one that READs and WRITEs ica: its own current compared
# with that one's conductance or permeability set to 0, since NEURON's ica is
# then the total); and the
# generated hh against NEURON's built-in hh (usetable_hh = 0). Pass: every value within 1e-12 relative of
# NEURON's; values NEURON gives as NaN (a file's removable 0/0 evaluated as
# written, hh.mod at -40 and -55 mV) are counted, not compared; a step that
# ends within 1e-6 mV of one is compared at 1e-4 (NEURON's quotient loses
# digits there).
#
# Usage: bash ci/nmodl-neuron-check.sh   (BUILD=build-neuron-check VENV=$BUILD/venv
#        OUT=$BUILD/nmodl-neuron-check; HB_NMODL_PYTHON: a python3 with sympy, default /usr/bin/python3)
# Needs python3 with venv, a C compiler and network access to PyPI (once).
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"
cd "$HB_ROOT"
BUILD=${BUILD:-build-neuron-check}
VENV=${VENV:-$BUILD/venv}
OUT=${OUT:-$BUILD/nmodl-neuron-check}
PY=${HB_NMODL_PYTHON:-/usr/bin/python3}
mkdir -p "$BUILD" "$OUT"
"$PY" -c 'import sympy' 2>/dev/null || die "$PY cannot import sympy (Debian: python3-sympy; or set HB_NMODL_PYTHON)"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import neuron' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q neuron numpy
fi
# nrnivmodl comes with the venv's NEURON.
PATH="$(cd "$VENV/bin" && pwd):$PATH" "$VENV/bin/python" tests/nmodl/neuron_compare.py \
    "$HB_ROOT" "$(cd "$OUT" && pwd)" "$PY" data/mechanisms/*.mod tests/nmodl/mod/*.mod data/models/l5pc/mod/*.mod
