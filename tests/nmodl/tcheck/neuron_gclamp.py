"""neuron_gclamp.py: NEURON's run of gclamp.json's cell (taper.swc under Import3d, nseg 1 + 2 floor(L/40); hh and gclamp everywhere at their defaults; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the after-step current check's reference (gclamp_reference.csv); run from a folder where nrnivmodl compiled gclamp.mod. Columns: t, the soma's v, then gclamp.json's probes in order."""
import sys

from neuron import h
from neuron_run import run_and_write, taper_cell

h.load_file("stdrun.hoc")
h.load_file("import3d.hoc")
secs, soma, nearest, stim = taper_cell(("hh", "gclamp"))
h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
s0, d190 = soma(0.5), nearest(190)
refs = (h._ref_t, s0._ref_v, d190._ref_v, d190._ref_i_gclamp)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,d190_v_mV,d190_gclamp.i", refs, 20)
