"""neuron_karea.py: NEURON's run of karea.json's cell (taper.swc under Import3d, nseg 1 + 2 floor(L/40); hh and karea everywhere as the file sets them; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the area check's reference (karea_reference.csv); run from a folder where nrnivmodl compiled karea.mod. Columns: t, the soma's v, then karea.json's probes in order."""
import math
import os
import sys

from neuron import h
from neuron_run import run_and_write

h.load_file("stdrun.hoc")
h.load_file("import3d.hoc")
here = os.path.dirname(os.path.abspath(__file__))
r = h.Import3d_SWC_read()
r.input(os.path.join(here, "taper.swc"))
h.Import3d_GUI(r, False).instantiate(None)
secs = list(h.allsec())
soma = [s for s in secs if s.name().startswith("soma")][0]
for s in secs:
    s.nseg = 1 + 2 * int(math.floor(s.L / 40.0))
    s.cm, s.Ra = 1.0, 100.0
    for m in ("hh", "karea"):
        s.insert(m)
    if not s.name().startswith("soma"):
        for seg in s:
            seg.n_karea = 40
h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
stim = h.IClamp(soma(0.5))
stim.delay, stim.dur, stim.amp = 2.0, 15.0, 1.0


def nearest(dist):
    """The dendrite segment whose centre is nearest dist um from soma(0.5)."""
    segs = [seg for s in secs if not s.name().startswith("soma") for seg in s]
    return min(segs, key=lambda seg: abs(h.distance(soma(0.5), seg) - dist))


s0, d50, d190 = soma(0.5), nearest(50), nearest(190)
refs = (h._ref_t, s0._ref_v, d50._ref_v, d190._ref_v, d190._ref_i_karea)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,d50_v_mV,d190_v_mV,d190_karea.i", refs, 20)
print("area at the probes: soma %.6g, d50 %.6g, d190 %.6g um2" % (s0.area(), d50.area(), d190.area()))
