#!/usr/bin/env bash
# neuron-import-check.sh: NEURON (PyPI `neuron`) imports each shipped SWC itself (Import3d); hinesbatch's --neuron-conventions must give its segments and its soma trace.
#
# Geometry, every shipped neuron, nseg 1, 2, 3 and the d_lambda rule (0.1
# at 100 Hz), and 40 random files made to walk Import3d's special cases
# (SEEDS=N, SEED0=S; nseg 1 and d_lambda): NEURON's own sections and
# segments (seg.area(), ri()), its
# zero-area section-end nodes folded as docs/morphology.md says, against
# `hinesbatch simulate --neuron-conventions --dump-cell`: the same number of
# compartments, every area, axial conductance and mean diameter within 1e-9
# (relative). One control run without --neuron-conventions must differ.
# Simulation, every shipped neuron, d_lambda 0.1, HH at the soma (1 nA) and
# HH everywhere (2 nA): NEURON on its own import (hh.mod with usetable_hh =
# 0, pas elsewhere, IClamp at the root section's middle, dt 0.025 ms, 6.3
# degC) against `hinesbatch simulate` (serial backend): soma voltage
# within 0.2 mV at every step, spike times within 0.05 ms, double and (HH
# everywhere) float.
#
# Usage: bash ci/neuron-import-check.sh   (BUILD=build-neuron-check VENV=$BUILD/venv
#        OUT=$BUILD/neuron-import-check; NEURON_VERSION=9.0.2)
# Needs python3 with venv and network access to PyPI (once), unless VENV
# already holds neuron and numpy.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"
cd "$HB_ROOT"
BUILD=${BUILD:-build-neuron-check}
VENV=${VENV:-$BUILD/venv}
OUT=${OUT:-$BUILD/neuron-import-check}
mkdir -p "$BUILD" "$OUT"

hb_cpu_cli "$BUILD"
hb_neuron_venv "$VENV"
CHECK=ci/neuron_import_check.py
HB=("$BUILD/apps/hinesbatch" simulate --cells 1)
export HINESBATCH_BACKEND=serial
quiet() { grep -v -e 'DISPLAY' -e 'No graphics' -e 'could not parse' || true; }

fail=0
# geometry FILE NAME NSEG: hinesbatch's compartments against NEURON's import.
# A file whose section has no length (every 3-D point at one place: NEURON
# makes it 1e-9 um with conductances near 1e16 uS) is refused by hinesbatch:
# that is the expected outcome, said so, not a failure.
geometry() {
    local f=$1 b=$2 ns=$3 disc
    if [ "$ns" = 0 ]; then disc=(--d-lambda 0.1); else disc=(--nseg "$ns"); fi
    echo "== geometry: $b, ${disc[*]}"
    if ! "${HB[@]}" --swc "$f" --tstop 0 --neuron-conventions "${disc[@]}" \
        --dump-cell "$OUT/$b.$ns.cell.csv" >/dev/null 2>"$OUT/$b.$ns.err"; then
        if grep -q "um long under NEURON's conventions" "$OUT/$b.$ns.err"; then
            echo "  refused as expected: $(sed 's/.*hb_morph_cell_create: //' "$OUT/$b.$ns.err")"
            return 0
        fi
        cat "$OUT/$b.$ns.err"
        fail=1
        return 0
    fi
    "$VENV/bin/python" "$CHECK" geometry "$f" "$ns" "$OUT/$b.$ns.cell.csv" 2>&1 | quiet || fail=1
}
for f in data/morphologies/*.swc; do
    for ns in 1 2 3 0; do
        geometry "$f" "$(basename "$f" .swc)" "$ns"
    done
done
# Random files through Import3d's special cases (ci/neuron_import_check.py
# generate): SEEDS of them (40), from SEED0 (1).
mkdir -p "$OUT/random"
for ((s = ${SEED0:-1}; s < ${SEED0:-1} + ${SEEDS:-40}; ++s)); do
    "$VENV/bin/python" "$CHECK" generate "$s" "$OUT/random/r$s.swc" 2>&1 | quiet
    for ns in 1 0; do
        geometry "$OUT/random/r$s.swc" "random/r$s" "$ns"
    done
done

# Control: hinesbatch's own conventions are not NEURON's; the check must see it.
f=data/morphologies/nrn__c91662.swc
echo "== control (must FAIL): $(basename "$f" .swc), --policy section --d-lambda 0.1 without --neuron-conventions"
"${HB[@]}" --swc "$f" --tstop 0 --policy section --d-lambda 0.1 --dump-cell "$OUT/control.cell.csv" >/dev/null
if "$VENV/bin/python" "$CHECK" geometry "$f" 0 "$OUT/control.cell.csv" 2>&1 | quiet; then
    echo "  the control passed: the check would see nothing"
    fail=1
fi

for f in data/morphologies/*.swc; do
    b=$(basename "$f" .swc)
    # HH at the soma and everywhere in double, everywhere in float: all
    # judged (float within the same bounds since the step solves for dv:
    # docs/simulate.md).
    for run in 0:double 1:double 1:float; do
        hh=${run%%:*} prec=${run#*:}
        if [ "$hh" = 1 ]; then extra=(--hh-everywhere); amp=2; else extra=(); amp=1; fi
        echo "== simulation: $b, d_lambda 0.1, HH $([ "$hh" = 1 ] && echo everywhere || echo 'at the soma'), IClamp 5,40,$amp, $prec"
        "${HB[@]}" --swc "$f" --record 1 --tstop 50 --iclamp "5,40,$amp" --neuron-conventions \
            --d-lambda 0.1 "${extra[@]}" --precision "$prec" --csv "$OUT/$b.$hh.$prec.trace.csv" \
            --spikes "$OUT/$b.$hh.$prec.spikes.csv" >/dev/null
        "$VENV/bin/python" "$CHECK" trace "$f" 0 "$hh" "$amp" "$OUT/$b.$hh.$prec.trace.csv" \
            "$OUT/$b.$hh.$prec.spikes.csv" 2>&1 | quiet || fail=1
    done
done
if [ "$fail" -ne 0 ]; then
    say "FAILED"
    exit 1
fi
say "all cases passed"
