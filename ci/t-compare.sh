#!/usr/bin/env bash
# t-compare.sh: NMODL's simulation time t in a whole simulation: tests/nmodl/tcheck/tdrive.json (one compartment, tdrive.mod alone, whose conductance follows t) run by `hinesbatch simulate --model` on each backend and engine, double and float, against NEURON 9.0.2's committed run of the same .mod (tests/nmodl/tcheck/reference.csv).
#
# Then the point-process half: tests/nmodl/tcheck/tpulse_run.c (the CLI has no
# point processes), built here against BUILD's static library, runs one
# compartment with pas and tpulse.mod's TPulse (ELECTRODE_CURRENT, positive
# inward, and t in BREAKPOINT) against NEURON's committed run
# (tpulse_reference.csv, neuron_tpulse.py): v and TPulse.i within 1e-9 mV and
# 1e-12 nA in double (3e-13 mV measured), 1e-3 mV and 1e-6 nA in float.
#
# Needs a build whose catalogue holds tests/nmodl/mod/tdrive.mod and tpulse.mod
# (ci/l5pc-compare.sh configures its build so; ci/test.sh passes that build). Every recorded sample
# (801, t = 0 included) is compared: v, the states a and b, and the current i.
# Bounds: double 1e-6 mV, 1e-8 (a, b), 1e-9 mA/cm2 (i; the CSV keeps 9
# significant digits: 5e-8 mV, 5e-10 and 1e-11 measured); float 1e-3 mV, 1e-5,
# 1e-7 (8e-5 mV, 7e-7 measured). NEURON's values: BREAKPOINT at t + dt/2, the
# states at t + dt, t = 0 for the currents after INITIAL (docs/mechanisms.md).
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
echo "t in a whole simulation (tests/nmodl/tcheck) against NEURON 9.0.2:"
echo "| backend, engine, precision | samples | worst v (mV) | worst a, b | worst i (mA/cm2) | within bounds |"
echo "|---|---|---|---|---|---|"
rc=0
for b in "${BACKENDS[@]}"; do
    for e in ${ENGINES:-auto cells stages}; do
        for p in double float; do
            tag=$b-$e-$p
            if ! HINESBATCH_BACKEND=$b "$exe" simulate --model tests/nmodl/tcheck/tdrive.json \
                    --cells 1 --iclamp 0,0,0 --tstop 20 --dt 0.025 --record 1 --engine "$e" \
                    --precision "$p" --csv "$OUT/$tag.csv" >"$OUT/$tag.log" 2>&1; then
                # An engine a backend does not have (serial's cells) is refused, not a failure.
                if grep -q "HB_ERR_BACKEND_UNAVAILABLE" "$OUT/$tag.log"; then
                    echo "| $tag | (engine not on this backend) |"
                    continue
                fi
                echo "| $tag | run failed: $OUT/$tag.log |"
                rc=1
                continue
            fi
            "$PY" - "$OUT/$tag.csv" tests/nmodl/tcheck/reference.csv "$p" "$tag" <<'PY' || rc=1
import csv, sys
ours, ref, prec, tag = sys.argv[1:]
def rows(path):
    r = list(csv.reader(open(path)))
    return [[float(x) for x in row] for row in r[1:]]
x, n = rows(ours), rows(ref)
bounds = (1e-6, 1e-8, 1e-9) if prec == "double" else (1e-3, 1e-5, 1e-7)
ok = len(x) == len(n) and all(abs(a[0] - b[0]) < 1e-9 for a, b in zip(x, n))
dv = max(abs(a[1] - b[1]) for a, b in zip(x, n))
dab = max(max(abs(a[2] - b[2]), abs(a[3] - b[3])) for a, b in zip(x, n))
di = max(abs(a[4] - b[4]) for a, b in zip(x, n))
ok = ok and dv <= bounds[0] and dab <= bounds[1] and di <= bounds[2]
print(f"| {tag} | {len(x)} of {len(n)} | {dv:.3g} | {dab:.3g} | {di:.3g} | {'yes' if ok else 'NO'} |")
sys.exit(0 if ok else 1)
PY
        done
    done
done
# The point-process half, linked as a consumer of the static library would be.
cmake --build "$BUILD" --target hinesbatch_static >"$OUT/static.log" 2>&1 ||
    { echo "t-compare: building the static library failed: $OUT/static.log" >&2; exit 1; }
ver=$(find "$BUILD" -name hinesbatch_version.h -not -path '*/CMakeFiles/*' | head -1)
priv=$(sed -n 's/^Libs.private: //p' "$BUILD/hinesbatch.pc")
# shellcheck disable=SC2086 # Libs.private is a list of flags
"${CC:-cc}" -std=c11 -O1 -I api/include -I "$(dirname "$ver")" tests/nmodl/tcheck/tpulse_run.c \
    "$BUILD/libhinesbatch.a" $priv -o "$OUT/tpulse_run" >"$OUT/tpulse_run.log" 2>&1 ||
    { echo "t-compare: building tpulse_run failed: $OUT/tpulse_run.log" >&2; exit 1; }
for b in "${BACKENDS[@]}"; do
    for e in ${ENGINES:-auto cells stages}; do
        for p in double float; do
            tag=tpulse-$b-$e-$p
            eng=0
            [ "$e" = stages ] && eng=1
            [ "$e" = cells ] && eng=2
            if ! HINESBATCH_BACKEND=$b "$OUT/tpulse_run" tests/nmodl/tcheck/soma.swc "$eng" \
                    "$([ "$p" = float ] && echo 1 || echo 0)" >"$OUT/$tag.csv" 2>"$OUT/$tag.log"; then
                if grep -q "HB_ERR_BACKEND_UNAVAILABLE\|backend unavailable" "$OUT/$tag.log"; then
                    echo "| $tag | (engine not on this backend) |"
                    continue
                fi
                echo "| $tag | run failed: $OUT/$tag.log |"
                rc=1
                continue
            fi
            "$PY" - "$OUT/$tag.csv" tests/nmodl/tcheck/tpulse_reference.csv "$p" "$tag" <<'PY' || rc=1
import csv, sys
ours, ref, prec, tag = sys.argv[1:]
def rows(path):
    r = list(csv.reader(open(path)))
    return [[float(x) for x in row] for row in r[1:]]
x, n = rows(ours), rows(ref)
bv, bi = (1e-9, 1e-12) if prec == "double" else (1e-3, 1e-6)
ok = len(x) == len(n) and all(abs(a[0] - b[0]) < 1e-9 for a, b in zip(x, n))
dv = max(abs(a[1] - b[1]) for a, b in zip(x, n))
di = max(abs(a[2] - b[2]) for a, b in zip(x, n))
ok = ok and dv <= bv and di <= bi
print(f"| {tag} | {len(x)} of {len(n)} | {dv:.3g} | - | {di:.3g} (nA) | {'yes' if ok else 'NO'} |")
sys.exit(0 if ok else 1)
PY
        done
    done
done
exit $rc
