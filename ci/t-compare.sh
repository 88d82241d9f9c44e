#!/usr/bin/env bash
# t-compare.sh: NMODL's simulation time t in a whole simulation: tests/nmodl/tcheck/tdrive.json (one compartment, tdrive.mod alone, whose conductance follows t) run by `hinesbatch simulate --model` on each backend and engine, double and float, against NEURON 9.0.2's committed run of the same .mod (tests/nmodl/tcheck/reference.csv).
#
# Every recorded sample (801, t = 0 included) is compared: v, the states a and
# b, and the current i. Bounds: double 1e-6 mV, 1e-8 (a, b), 1e-9 mA/cm2 (i;
# the CSV keeps 9 significant digits: 5e-8 mV, 5e-10 and 5e-12 measured);
# float 1e-3 mV, 1e-5, 1e-7 (8e-5 mV, 8e-7 measured). NEURON's values:
# BREAKPOINT at t + dt/2, the states at t + dt, t = 0 for the currents after
# INITIAL (docs/mechanisms.md).
#
# Then the point-process halves: tests/nmodl/tcheck/point_run.c (the CLI has
# no point processes), built here against BUILD's static library as a consumer
# would link it, runs one compartment with pas and one point process against
# NEURON's committed run (neuron_point.py NAME): tpulse.mod's TPulse
# (ELECTRODE_CURRENT, positive inward, and t in BREAKPOINT; tpulse_reference.csv):
# v and TPulse.i within 1e-9 mV and 1e-12 nA in double (3e-13 mV measured),
# 1e-3 mV and 1e-6 nA in float; vstep.mod's VStep (a voltage clamp through
# 2 megohm, -70 mV then -20 mV from 1 to 6 ms, then off; its current computed
# again after each step by a PROCEDURE solved with METHOD after_cvode, which
# NEURON records: the engine keeps it again after the state step;
# vstep_reference.csv): v and VStep.i within 1e-9 mV and 1e-9 nA in double,
# 1e-3 mV and 1e-3 nA in float.
# tests/nmodl/tcheck/compare.py judges each run.
#
# Then the geometry half: NMODL's diam. tests/nmodl/tcheck/cashell.json
# (taper.swc: a dendrite tapering from 3 to 0.6 um; HH, cal.mod's L-type
# calcium and cashell.mod's shell, whose volume follows diam, everywhere; 1 nA
# at the soma from 2 to 17 ms) against NEURON's committed run
# (cashell_reference.csv, neuron_cashell.py): the soma's v, cai at the soma,
# 50 and 190 um (diam 10, 2.09 and 0.64 um: the thin end takes the shell's
# other branch) and v at 190 um, every sample: double within 1e-5 mV, 1e-8 mM
# and 1e-4 mV at 190 um (measured 5.9e-7 mV, 5.6e-10 mM, 1.8e-6 mV: HH's
# spikes amplify the rounding); float 2e-3 mV, 1e-6 mM, 5e-3 mV (9e-5 mV,
# 3.2e-8 mM, 3e-4 mV).
#
# Then the pool half: a concentration written by assignment.
# tests/nmodl/tcheck/cpool.json (one compartment: HH, cal.mod and cpool.mod,
# whose STATE cpl integrates the influx under cnexp and whose `cai = cpl`,
# after the equation, writes the ion's cai; 1 nA from 2 to 17 ms) against
# NEURON's committed run (cpool_reference.csv, neuron_cpool.py): v, cpl, the
# kept cpool.cai, the ion's cai and ica, every sample: double within 1e-5 mV,
# 1e-8 mM and 1e-8 mA/cm2 (measured 8.9e-7 mV, 4.4e-10 mM, 8e-10 mA/cm2);
# float 2e-3 mV, 1e-6 (7e-5 mV, 1.6e-8 mM, 3.2e-8 mA/cm2).
#
# Then the area half: NMODL's area. tests/nmodl/tcheck/karea.json (taper.swc;
# HH and karea.mod, a fixed current per compartment over its membrane area,
# everywhere; 1 nA at the soma from 2 to 17 ms) against NEURON's committed run
# (karea_reference.csv, neuron_karea.py): v at the soma, 50 and 190 um (areas
# 314, 120 and 36 um2) and karea.i at 190 um, every sample: double within
# 1e-5 mV and 1e-8 mA/cm2, float 2e-3 mV and 1e-6; and a model file setting
# karea.area refused, naming it.
#
# Then the arrays half: tests/nmodl/tcheck/cashells.json (taper.swc; HH,
# cal.mod and cashells.mod's four shells of calcium and buffer, STATE arrays
# and FROM loops, everywhere; 1 nA at the soma from 2 to 17 ms) against
# NEURON's committed run (cashells_reference.csv, neuron_cashells.py): the
# soma's v and cai, the innermost shell's calcium there (cashells.ca[3]), the
# outer shell's calcium and the inner bound buffer at 190 um, v there, every
# sample: double within 1e-5 mV, 1e-8 mM and 1e-4 mV at 190 um (measured on
# serial 5.9e-7 mV, 3.5e-10 mM, 1.8e-6 mV); float 2e-3 mV, 1e-6 mM, 5e-3 mV
# (2.5e-4 mV, 9.1e-8 mM, 7.3e-4 mV).
#
# Then the after-step current half: tests/nmodl/tcheck/gclamp.json (taper.swc;
# HH and gclamp.mod, a conductance toward -40 mV whose SOLVE, a PROCEDURE
# under METHOD after_cvode, computes its current again after each step,
# everywhere; 1 nA at the soma from 2 to 17 ms) against NEURON's committed run
# (gclamp_reference.csv, neuron_gclamp.py): the soma's v, v and gclamp.i at
# 190 um (NEURON records i at the new v, and so must the probe), every
# sample: double within 1e-5 mV, 1e-4 mV and 1e-8 mA/cm2; float 2e-3 mV,
# 5e-3 mV and 2e-5 mA/cm2.
#
# Then the read-and-written current half: tests/nmodl/tcheck/crw.json (one
# compartment: HH, cal.mod and crw.mod, a calcium pool whose SOLVE reads the
# ion's total ica and takes out the pump current its BREAKPOINT wrote the
# step before, USEION ca READ ica WRITE ica; 1 nA from 2 to 17 ms) against
# NEURON's committed run (crw_reference.csv, neuron_crw.py): v, crw.cpool,
# the kept crw.ipump, the ion's cai and ica (the total), every sample: double
# within 1e-5 mV, 1e-8 mM and 1e-8 mA/cm2 (measured 9.2e-7 mV, 2.8e-10 mM,
# 7.8e-10 mA/cm2); float 2e-3 mV, 1e-6 (9.9e-5 mV, 1.2e-8 mM, 4.9e-8 mA/cm2).
#
# Then NET_RECEIVE with several arguments: stp.mod's StpSyn (a synapse whose
# release depends on its connection's history, kept in NET_RECEIVE's x, u and
# tlast and set up by NET_RECEIVE's INITIAL) in point_run's cell with events
# of weight 0.002 uS at 1, 3, 3.5, 4, 6.025 and 9 ms against NEURON's
# committed run (stp_reference.csv, neuron_point.py StpSyn EVENTS): v and
# StpSyn.i within 1e-9 mV and 1e-12 nA in double (7.8e-14 mV, 4.9e-17 nA
# measured), 1e-3 mV and 1e-6 nA in float (9.7e-6 mV, 1.8e-8 nA). And
# tests/nmodl/tcheck/stp_net.c: StpSyn in a network, where each connection
# keeps its own values (a synapse with two connections against two with one
# each, and two connections from one cell against one; relative 1e-12 in
# double, 1e-5 in float; a shared set of values misses by 0.45 and 0.75).
#
# Then self-events: pulse.mod's PulseSyn (each event opens a transmitter pulse
# that a net_send ends 1.5 ms later; the last to end sends one of delay 0; the
# pulse's end reads its connection's values as they are then) in point_run's
# cell with events of weight 0.002 uS at 1, 2, 2.2, 3.5 (where a pulse ends
# too), 5, 5.1, ..., 5.7 (8 pulses pending, the queue's capacity) and 8 ms
# against NEURON's committed run (pulse_reference.csv): v and PulseSyn.i
# within 1e-9 mV and 1e-12 nA in double (5.8e-13 mV, 3.5e-15 nA measured),
# 1e-3 mV and 1e-6 nA in float (2.0e-5 mV, 1.2e-7 nA). Ten pulses pending
# must fail the run (HB_ERR_NUMERICAL naming the point: self-events lost).
# And PulseSyn in stp_net's network (wsum, the conductance its open pulses
# give: 0 in double, 4.8e-8 in float; self-events that lose their
# connection miss by 1). Then self-events sent by INITIAL: train.mod's
# TrainSyn (a train of 4 pulses that INITIAL's net_send starts, each pulse's
# end sending the next start; events of 0.001 uS at 1, 3, 5.4 and 6.8 ms
# add to the conductance while a pulse is open) against NEURON's run
# (train_reference.csv): 1e-9 mV and 1e-12 nA in double (4.3e-13 mV,
# 1.4e-15 nA measured), 1e-3 mV and 1e-6 nA in float (9.9e-6 mV, 4.6e-8 nA).
#
# Needs a build whose catalogue holds tests/nmodl/mod/tdrive.mod, tpulse.mod,
# vstep.mod, cal.mod, cashell.mod, cpool.mod, karea.mod, cashells.mod, gclamp.mod, crw.mod,
# stp.mod, pulse.mod and train.mod (ci/l5pc-compare.sh configures its build so; ci/test.sh
# passes that build).
#
# Usage: bash ci/t-compare.sh BUILD [serial|openmp|opencl|cuda ...]   (default serial openmp;
#        ENGINES="auto cells stages" by default; OUT=$BUILD/t-compare)
# Exit status: 0 when every run is within the bounds, 1 when one is not, 2 on usage.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$HB_ROOT"
[ $# -ge 1 ] || { hb_usage; exit 2; }
BUILD=$1
shift
BACKENDS=("$@")
[ ${#BACKENDS[@]} -gt 0 ] || BACKENDS=(serial openmp)
OUT=${OUT:-$BUILD/t-compare}
exe=$BUILD/apps/hinesbatch
[ -x "$exe" ] || { echo "t-compare: no $exe" >&2; exit 2; }
# shellcheck source=ci/opencl-env.sh
. ci/opencl-env.sh "$BUILD" >/dev/null
mkdir -p "$OUT"
PY=python3
command -v "$PY" >/dev/null 2>&1 || PY=/usr/bin/python3
# one_case TAG REF BOUNDS COMMAND...: COMMAND writes $OUT/TAG.csv (its output to
# $OUT/TAG.log), compared with REF column by column (BOUNDS: one per column after
# t). An engine a backend does not have (serial's cells) is refused, not a failure.
one_case() {
    local tag=$1 ref=$2 bounds=$3
    shift 3
    if ! "$@" >"$OUT/$tag.log" 2>&1; then
        if grep -q "HB_ERR_BACKEND_UNAVAILABLE" "$OUT/$tag.log"; then
            echo "| $tag | (engine not on this backend) |"
            return 0
        fi
        echo "| $tag | run failed: $OUT/$tag.log |"
        return 1
    fi
    # shellcheck disable=SC2086 # the bounds are a list
    "$PY" tests/nmodl/tcheck/compare.py "$OUT/$tag.csv" "$ref" "$tag" $bounds
}
read -ra engines <<<"${ENGINES:-auto cells stages}"
rc=0
# model_cases PREFIX MODEL REF DOUBLE_BOUNDS FLOAT_BOUNDS ICLAMP: `simulate --model
# MODEL` (one cell, 20 ms at dt 0.025, --iclamp ICLAMP) on every backend, engine
# and precision, each run (tag PREFIX BACKEND-ENGINE-PRECISION) against REF.
model_cases() {
    local pre=$1 model=$2 ref=$3 bd=$4 bf=$5 clamp=$6 b e p bounds
    for b in "${BACKENDS[@]}"; do
        for e in "${engines[@]}"; do
            for p in double float; do
                bounds=$bd
                [ "$p" = float ] && bounds=$bf
                one_case "$pre$b-$e-$p" "$ref" "$bounds" \
                    env HINESBATCH_BACKEND="$b" "$exe" simulate --model "$model" --cells 1 \
                    --iclamp "$clamp" --tstop 20 --dt 0.025 --record 1 --engine "$e" \
                    --precision "$p" --csv "$OUT/$pre$b-$e-$p.csv" || rc=1
            done
        done
    done
}
echo "t in a whole simulation (tests/nmodl/tcheck) against NEURON 9.0.2:"
echo "| backend, engine, precision | samples | worst v (mV) | a | b | i (mA/cm2) | within bounds |"
echo "|---|---|---|---|---|---|---|"
model_cases "" tests/nmodl/tcheck/tdrive.json tests/nmodl/tcheck/reference.csv \
    "1e-6 1e-8 1e-8 1e-9" "1e-3 1e-5 1e-5 1e-7" 0,0,0
# The point-process half, linked as a consumer of the static library would be.
cmake --build "$BUILD" --target hinesbatch_static >"$OUT/static.log" 2>&1 ||
    { echo "t-compare: building the static library failed: $OUT/static.log" >&2; exit 1; }
ver=$(find "$BUILD" -name hinesbatch_version.h -not -path '*/CMakeFiles/*' | head -1)
priv=$(sed -n 's/^Libs.private: //p' "$BUILD/hinesbatch.pc")
# shellcheck disable=SC2086 # Libs.private is a list of flags
"${CC:-cc}" -std=c11 -O1 -I api/include -I "$(dirname "$ver")" tests/nmodl/tcheck/point_run.c \
    "$BUILD/libhinesbatch.a" $priv -o "$OUT/point_run" >"$OUT/point_run.log" 2>&1 ||
    { echo "t-compare: building point_run failed: $OUT/point_run.log" >&2; exit 1; }
# engine_code ENGINE: the small programs' engine argument (0 auto, 1 stages, 2 cells).
engine_code() {
    case $1 in stages) echo 1 ;; cells) echo 2 ;; *) echo 0 ;; esac
}
# point_cases NAME REF DOUBLE_BOUNDS FLOAT_BOUNDS [EVENTS]: point_run's cell with the
# point process NAME (and EVENTS W:T1,... into it) on every backend, engine and
# precision against REF.
point_cases() {
    local name=$1 ref=$2 bd=$3 bf=$4 events=${5:-} tag b e p bounds
    tag=$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')
    for b in "${BACKENDS[@]}"; do
        for e in "${engines[@]}"; do
            for p in double float; do
                bounds=$bd
                [ "$p" = float ] && bounds=$bf
                one_case "$tag-$b-$e-$p" "$ref" "$bounds" \
                    env HINESBATCH_BACKEND="$b" "$OUT/point_run" tests/nmodl/tcheck/soma.swc \
                    "$(engine_code "$e")" \
                    "$([ "$p" = float ] && echo 1 || echo 0)" "$OUT/$tag-$b-$e-$p.csv" "$name" \
                    ${events:+"$events"} || rc=1
            done
        done
    done
}
echo "| backend, engine, precision (TPulse) | samples | worst v (mV) | i (nA) | within bounds |"
echo "|---|---|---|---|---|"
point_cases TPulse tests/nmodl/tcheck/tpulse_reference.csv "1e-9 1e-12" "1e-3 1e-6"
echo "| backend, engine, precision (VStep) | samples | worst v (mV) | i (nA) | within bounds |"
echo "|---|---|---|---|---|"
point_cases VStep tests/nmodl/tcheck/vstep_reference.csv "1e-9 1e-9" "1e-3 1e-3"
echo "| backend, engine, precision (StpSyn) | samples | worst v (mV) | i (nA) | within bounds |"
echo "|---|---|---|---|---|"
point_cases StpSyn tests/nmodl/tcheck/stp_reference.csv "1e-9 1e-12" "1e-3 1e-6" \
    0.002:1,3,3.5,4,6.025,9
echo "| backend, engine, precision (PulseSyn) | samples | worst v (mV) | i (nA) | within bounds |"
echo "|---|---|---|---|---|"
point_cases PulseSyn tests/nmodl/tcheck/pulse_reference.csv "1e-9 1e-12" "1e-3 1e-6" \
    0.002:1,2,2.2,3.5,5,5.1,5.2,5.3,5.4,5.5,5.6,5.7,8
echo "| backend, engine, precision (TrainSyn) | samples | worst v (mV) | i (nA) | within bounds |"
echo "|---|---|---|---|---|"
point_cases TrainSyn tests/nmodl/tcheck/train_reference.csv "1e-9 1e-12" "1e-3 1e-6" \
    0.001:1,3,5.4,6.8
# More self-events pending than a queue holds: the run fails and says so.
for b in "${BACKENDS[@]}"; do
    tag="pulse-full-$b"
    if env HINESBATCH_BACKEND="$b" "$OUT/point_run" tests/nmodl/tcheck/soma.swc 0 0 \
        "$OUT/$tag.csv" PulseSyn 0.002:1,1.1,1.2,1.3,1.4,1.5,1.6,1.7,1.8,1.9 >"$OUT/$tag.log" 2>&1; then
        echo "| $tag | ran: ten pending self-events must fail the run |"
        rc=1
    elif grep -q "HB_ERR_NUMERICAL.*point process 0 (PulseSyn) lost self-events" "$OUT/$tag.log"; then
        echo "| $tag | refused as it must: $(grep -o 'lost self-events ([0-9]* in all)' "$OUT/$tag.log") |"
    else
        echo "| $tag | failed otherwise: $OUT/$tag.log |"
        rc=1
    fi
done
# The per-connection half: stp_net.c, built as point_run is.
# shellcheck disable=SC2086 # Libs.private is a list of flags
"${CC:-cc}" -std=c11 -O1 -I api/include -I "$(dirname "$ver")" tests/nmodl/tcheck/stp_net.c \
    "$BUILD/libhinesbatch.a" $priv -lm -o "$OUT/stp_net" >"$OUT/stp_net.log" 2>&1 ||
    { echo "t-compare: building stp_net failed: $OUT/stp_net.log" >&2; exit 1; }
# net_cases PREFIX NAME VALUE: stp_net with point process NAME, compared by VALUE, on
# every backend, engine and precision.
net_cases() {
    local pre=$1 name=$2 value=$3 b e p tag
    echo "| backend, engine, precision ($name, per connection) | sources' spikes | a - b - c | d - 2 b | values read back | within bounds |"
    echo "|---|---|---|---|---|---|"
    for b in "${BACKENDS[@]}"; do
        for e in "${engines[@]}"; do
            for p in double float; do
                tag="$pre-$b-$e-$p"
                if ! env HINESBATCH_BACKEND="$b" "$OUT/stp_net" tests/nmodl/tcheck/soma.swc \
                    "$(engine_code "$e")" \
                    "$([ "$p" = float ] && echo 1 || echo 0)" "$tag" "$name" "$value" \
                    2>"$OUT/$tag.log"; then
                    if grep -q "HB_ERR_BACKEND_UNAVAILABLE" "$OUT/$tag.log"; then
                        echo "| $tag | (engine not on this backend) |"
                    else
                        echo "| $tag | failed: $OUT/$tag.log |"
                        rc=1
                    fi
                fi
            done
        done
    done
}
net_cases stpnet StpSyn g
# Self-events in a network: each pulse's end takes off what its own
# connection gave (a self-event that lost its connection misses by 1).
net_cases pulsenet PulseSyn wsum
echo "| backend, engine, precision (cashell) | samples | worst soma v (mV) | soma cai (mM) | cai, 50 um | cai, 190 um | v, 190 um | within bounds |"
echo "|---|---|---|---|---|---|---|---|"
model_cases cashell- tests/nmodl/tcheck/cashell.json tests/nmodl/tcheck/cashell_reference.csv \
    "1e-5 1e-8 1e-8 1e-8 1e-4" "2e-3 1e-6 1e-6 1e-6 5e-3" 2,15,1
echo "| backend, engine, precision (cpool) | samples | worst v (mV) | cpl (mM) | cpool.cai | cai | ica (mA/cm2) | within bounds |"
echo "|---|---|---|---|---|---|---|---|"
model_cases cpool- tests/nmodl/tcheck/cpool.json tests/nmodl/tcheck/cpool_reference.csv \
    "1e-5 1e-8 1e-8 1e-8 1e-8" "2e-3 1e-6 1e-6 1e-6 1e-6" 2,15,1
echo "| backend, engine, precision (karea) | samples | worst soma v (mV) | v, 50 um | v, 190 um | karea.i, 190 um | within bounds |"
echo "|---|---|---|---|---|---|---|"
model_cases karea- tests/nmodl/tcheck/karea.json tests/nmodl/tcheck/karea_reference.csv \
    "1e-5 1e-5 1e-5 1e-8" "2e-3 2e-3 2e-3 1e-6" 2,15,1
echo "| backend, engine, precision (cashells) | samples | worst soma v (mV) | soma cai (mM) | ca[3] | ca[0], 190 um | cabuf[3], 190 um | v, 190 um | within bounds |"
echo "|---|---|---|---|---|---|---|---|---|"
model_cases cashells- tests/nmodl/tcheck/cashells.json tests/nmodl/tcheck/cashells_reference.csv \
    "1e-5 1e-8 1e-8 1e-8 1e-8 1e-4" "2e-3 1e-6 1e-6 1e-6 1e-6 5e-3" 2,15,1
echo "| backend, engine, precision (gclamp) | samples | worst soma v (mV) | v, 190 um | gclamp.i, 190 um (mA/cm2) | within bounds |"
echo "|---|---|---|---|---|---|"
model_cases gclamp- tests/nmodl/tcheck/gclamp.json tests/nmodl/tcheck/gclamp_reference.csv \
    "1e-5 1e-4 1e-8" "2e-3 5e-3 2e-5" 2,15,1
echo "| backend, engine, precision (crw) | samples | worst v (mV) | crw.cpool (mM) | crw.ipump (mA/cm2) | cai | ica (mA/cm2) | within bounds |"
echo "|---|---|---|---|---|---|---|---|"
model_cases crw- tests/nmodl/tcheck/crw.json tests/nmodl/tcheck/crw_reference.csv \
    "1e-5 1e-8 1e-8 1e-8 1e-8" "2e-3 1e-6 1e-6 1e-6 1e-6" 2,15,1
# diam and area are the morphology's: a model file that sets one must be
# refused, naming it.
# sets_geometry MODEL MECH PARAM WHAT: MODEL with MECH.PARAM set in its second
# region must fail with a message naming MECH.PARAM as WHAT.
sets_geometry() {
    local model=$1 mech=$2 param=$3 what=$4 f="$OUT/$2-sets-$3"
    "$PY" - "$f.json" "$model" "$mech" "$param" <<'PYEOF'
import json, os, sys
out, model, mech, param = sys.argv[1:]
here = os.path.dirname(model)
d = json.load(open(model))
d["morphology"] = os.path.abspath(os.path.join(here, d["morphology"]))
d["mechanisms"] = {k: os.path.abspath(os.path.join(here, v)) for k, v in d["mechanisms"].items()}
d["regions"][1]["mechanisms"][mech][param] = 3.0
json.dump(d, open(out, "w"))
PYEOF
    if "$exe" simulate --model "$f.json" --cells 1 --tstop 1 >"$f.log" 2>&1 ||
        ! grep -q "$mech.$param is the compartment's $what" "$f.log"; then
        echo "t-compare: a model file setting $mech.$param was not refused as it must be: $f.log"
        rc=1
    else
        echo "a model file setting $mech.$param: refused ($(grep -o 'hb_sim_set_param: .*' \
            "$f.log" | head -1))"
    fi
}
sets_geometry tests/nmodl/tcheck/cashell.json cashell diam "mean diameter"
sets_geometry tests/nmodl/tcheck/karea.json karea area "membrane area"
exit $rc
