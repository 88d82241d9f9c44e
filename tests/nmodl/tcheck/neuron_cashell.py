"""neuron_cashell.py: NEURON's run of cashell.json's cell (taper.swc under Import3d, nseg 1 + 2 floor(L/40); hh, caltest and cashell everywhere as the file sets them; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the geometry check's reference (cashell_reference.csv); run from a folder where nrnivmodl compiled cal.mod and cashell.mod. Columns: t, the soma's v, then cashell.json's probes in order."""
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
    for m in ("hh", "caltest", "cashell"):
        s.insert(m)
    for seg in s:
        seg.pbar_caltest = 2e-4
        if not s.name().startswith("soma"):
            seg.depth_cashell = 0.35
h.cai0_ca_ion, h.cao0_ca_ion = 5e-5, 2.0
h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
stim = h.IClamp(soma(0.5))
stim.delay, stim.dur, stim.amp = 2.0, 15.0, 1.0


def nearest(dist):
    """The dendrite segment whose centre is nearest dist um from soma(0.5)."""
    segs = [seg for s in secs if not s.name().startswith("soma") for seg in s]
    return min(segs, key=lambda seg: abs(h.distance(soma(0.5), seg) - dist))


s0, d50, d190 = soma(0.5), nearest(50), nearest(190)
refs = (h._ref_t, s0._ref_v, s0._ref_cai, d50._ref_cai, d190._ref_cai, d190._ref_v)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,soma_cashell.cai,d50_cashell.cai,d190_cashell.cai,d190_v_mV",
                  refs, 20)
print("diam at the probes: soma %.6g, d50 %.6g, d190 %.6g um" % (s0.diam, d50.diam, d190.diam))
