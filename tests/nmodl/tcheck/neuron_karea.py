"""neuron_karea.py: NEURON's run of karea.json's cell (taper.swc under Import3d, nseg 1 + 2 floor(L/40); hh and karea everywhere as the file sets them; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the area check's reference (karea_reference.csv); run from a folder where nrnivmodl compiled karea.mod. Columns: t, the soma's v, then karea.json's probes in order."""
import sys

from neuron import h
from neuron_run import run_and_write, taper_cell

h.load_file("stdrun.hoc")
h.load_file("import3d.hoc")
secs, soma, nearest, stim = taper_cell(("hh", "karea"))
for s in secs:
    if not s.name().startswith("soma"):
        for seg in s:
            seg.n_karea = 40
h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
s0, d50, d190 = soma(0.5), nearest(50), nearest(190)
refs = (h._ref_t, s0._ref_v, d50._ref_v, d190._ref_v, d190._ref_i_karea)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,d50_v_mV,d190_v_mV,d190_karea.i", refs, 20)
print("area at the probes: soma %.6g, d50 %.6g, d190 %.6g um2" % (s0.area(), d50.area(), d190.area()))
