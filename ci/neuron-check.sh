#!/usr/bin/env bash
# neuron-check.sh: optional check of `hinesbatch simulate` against NEURON (PyPI `neuron`) on shipped neurons: soma traces and spike times.
#
# For each neuron and configuration, hinesbatch simulates the cell (serial
# backend, double) and dumps its compartments (area, axial conductance, parent,
# HH or not); NEURON then simulates the same compartments: one section of
# nseg = 1 per compartment, whose length and diameter give exactly that area
# and that conductance to the parent's centre (children attached at the
# parent's 0.5). Same parameters (cm 1 uF/cm2, Ra 35.4 ohm cm, dt 0.025 ms,
# 6.3 degC, v_init -65 mV, hh.mod with usetable_hh = 0, pas elsewhere), same
# IClamp at the soma. Pass: same spike count, spike times within 0.1 ms,
# voltage within 1 mV outside +-2 ms windows around spikes.
#
# usage: ci/neuron-check.sh            (BUILD=build-neuron-check VENV=$BUILD/venv)
# Needs python3 with venv and network access to PyPI (once).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-neuron-check}
VENV=${VENV:-$BUILD/venv}
OUT=${OUT:-$BUILD/neuron-check}
mkdir -p "$BUILD" "$OUT"

if [ ! -x "$BUILD/apps/hinesbatch" ]; then
  cmake -S . -B "$BUILD" -DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENCL=OFF \
        -DHINESBATCH_BUILD_TESTS=OFF >/dev/null
  cmake --build "$BUILD" -j2 --target hinesbatch_cli >/dev/null
fi
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import neuron, numpy' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q neuron numpy
fi
"$VENV/bin/python" -c 'import neuron; print("NEURON", neuron.__version__)'

cat > "$OUT/nrn_compare.py" <<'EOF'
"""Rebuilds hinesbatch's compartments in NEURON, runs the same clamp, compares soma traces."""
import csv, math, sys
import numpy as np
from neuron import h

cell_csv, trace_csv, spikes_csv, onset, dur, amp, tstop, hh_all = sys.argv[1:9]
onset, dur, amp, tstop = float(onset), float(dur), float(amp), float(tstop)
RA, CM, DT, CELSIUS, VINIT = 35.4, 1.0, 0.025, 6.3, -65.0
GL, EL, ENA, EK, THR = 0.0003, -54.3, 50.0, -77.0, -20.0

rows = list(csv.DictReader(open(cell_csv)))
h.load_file("stdrun.hoc")
secs = []
soma = None
worst_area = worst_g = 0.0
for r in rows:
    k, p = int(r["index"]), int(r["parent"])
    area, g = float(r["area_um2"]), float(r["g_axial_uS"])
    s = h.Section(name="c%d" % k)
    s.nseg, s.Ra, s.cm = 1, RA, CM
    if p < 0:
        d = math.sqrt(area / math.pi)  # a cylinder with L = diam
        s.L, s.diam = d, d
    else:
        # area = pi d L and g = 1/R(centre -> 0 end) = 50 pi d^2 / (Ra L) uS
        d = (g * RA * area / (50.0 * math.pi ** 2)) ** (1.0 / 3.0)
        s.L, s.diam = area / (math.pi * d), d
        s.connect(secs[p](0.5), 0)
    if int(r["hh"]):
        s.insert("hh")
        for seg in s:
            seg.hh.gnabar, seg.hh.gkbar, seg.hh.gl, seg.hh.el = 0.12, 0.036, GL, EL
        s.ena, s.ek = ENA, EK
    else:
        s.insert("pas")
        for seg in s:
            seg.pas.g, seg.pas.e = GL, EL
    secs.append(s)
    if int(r["soma"]):
        soma = s
# NEURON's own view of the geometry must be the compartments given.
for r, s in zip(rows, secs):
    seg = s(0.5)
    worst_area = max(worst_area, abs(seg.area() - float(r["area_um2"])) / float(r["area_um2"]))
    if int(r["parent"]) >= 0:
        g_nrn = 1.0 / seg.ri()  # MOhm -> uS
        worst_g = max(worst_g, abs(g_nrn - float(r["g_axial_uS"])) / float(r["g_axial_uS"]))
print("  geometry: %d compartments; NEURON areas within %.1e, axial conductances within %.1e"
      % (len(secs), worst_area, worst_g))
assert worst_area < 1e-9 and worst_g < 1e-9, "NEURON geometry differs from the compartments"

h.celsius = CELSIUS
h.usetable_hh = 0  # exact rate functions, as hinesbatch
h.dt = DT
h.steps_per_ms = 1.0 / DT
h.secondorder = 0
stim = h.IClamp(soma(0.5))
stim.delay, stim.dur, stim.amp = onset, dur, amp
vrec = h.Vector().record(soma(0.5)._ref_v)
h.finitialize(VINIT)
h.tstop = tstop
h.run()
vn = np.array(vrec)

hb = list(csv.reader(open(trace_csv)))
vb = np.array([float(x[1]) for x in hb[1:]])
t = np.array([float(x[0]) for x in hb[1:]])
n = min(len(vn), len(vb))
if len(vn) != len(vb):
    print("  note: NEURON %d samples, hinesbatch %d" % (len(vn), len(vb)))


def crossings(v):
    out = []
    for j in range(1, len(v)):
        if v[j - 1] < THR <= v[j]:
            out.append((j - 1 + (THR - v[j - 1]) / (v[j] - v[j - 1])) * DT)
    return out


sn, sb = crossings(vn[:n]), crossings(vb[:n])
lib = [float(r["spike_ms"]) for r in csv.DictReader(open(spikes_csv)) if r["cell"] == "0"]
mask = np.ones(n, bool)
for ts in sn + sb:
    mask &= np.abs(t[:n] - ts) > 2.0
dv = np.abs(vn[:n] - vb[:n])
dt_spk = max([abs(a - b) for a, b in zip(sn, sb)], default=0.0)
dt_lib = max([abs(a - b) for a, b in zip(sn, lib)], default=0.0)
print("  spikes: NEURON %d %s" % (len(sn), " ".join("%.3f" % x for x in sn)))
print("          hinesbatch %d %s (library: %s)" % (len(sb), " ".join("%.3f" % x for x in sb),
                                                   " ".join("%.3f" % x for x in lib)))
print("  max |spike time difference| %.2e ms (library's interpolated times %.2e ms)"
      % (dt_spk, dt_lib))
print("  max |V difference| %.2e mV away from spikes (%d samples), %.2e mV overall"
      % (dv[mask].max() if mask.any() else 0.0, int(mask.sum()), dv.max()))
ok = (len(sn) == len(sb) == len(lib) and dt_spk <= 0.1 and dt_lib <= 0.1
      and (not mask.any() or dv[mask].max() <= 1.0) and len(vn) == len(vb))
print("  %s" % ("PASS" if ok else "FAIL"))
sys.exit(0 if ok else 1)
EOF

fail=0
run_case() { # name swc iclamp extra-flags
  local name=$1 swc=$2 clamp=$3; shift 3
  echo "== $name: $swc, IClamp $clamp (onset,dur,nA) $*"
  HINESBATCH_BACKEND=serial "$BUILD/apps/hinesbatch" simulate --swc "$swc" --cells 1 --record 1 \
    --tstop 50 --iclamp "$clamp" --dump-cell "$OUT/$name.cell.csv" --csv "$OUT/$name.trace.csv" \
    --spikes "$OUT/$name.spikes.csv" "$@" | sed -n 's/^/  /; /spikes\|performance/p'
  IFS=, read -r on du am <<<"$clamp"
  local hh=0; [[ " $* " == *" --hh-everywhere "* ]] && hh=1
  "$VENV/bin/python" "$OUT/nrn_compare.py" "$OUT/$name.cell.csv" "$OUT/$name.trace.csv" \
    "$OUT/$name.spikes.csv" "$on" "$du" "$am" 50 "$hh" || fail=1
}
M=data/morphologies
run_case c91662-soma-hh "$M/nrn__c91662.swc" 5,40,1
run_case c91662-hh-everywhere "$M/nrn__c91662.swc" 5,40,2 --hh-everywhere
run_case n120-soma-hh "$M/jaxley__morph_ca1_n120.swc" 5,40,1
run_case n120-hh-everywhere "$M/jaxley__morph_ca1_n120.swc" 5,40,1 --hh-everywhere
run_case bs0284-section-policy "$M/netpyne__BS0284.swc" 5,40,1 --policy section --hh-everywhere
if [ $fail -ne 0 ]; then
  echo "neuron-check: FAILED"
  exit 1
fi
echo "neuron-check: all cases passed"
