"""neuron_cashell.py: NEURON's run of cashell.json's cell (taper.swc under Import3d, nseg 1 + 2 floor(L/40); hh, caltest and cashell everywhere as the file sets them; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the geometry check's reference (cashell_reference.csv); run from a folder where nrnivmodl compiled cal.mod and cashell.mod. Columns: t, the soma's v, then cashell.json's probes in order."""
import sys

from neuron import h
from neuron_run import run_and_write, taper_cell

h.load_file("stdrun.hoc")
h.load_file("import3d.hoc")
secs, soma, nearest, stim = taper_cell(("hh", "caltest", "cashell"))
for s in secs:
    for seg in s:
        seg.pbar_caltest = 2e-4
        if not s.name().startswith("soma"):
            seg.depth_cashell = 0.35
h.cai0_ca_ion, h.cao0_ca_ion = 5e-5, 2.0
h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
s0, d50, d190 = soma(0.5), nearest(50), nearest(190)
refs = (h._ref_t, s0._ref_v, s0._ref_cai, d50._ref_cai, d190._ref_cai, d190._ref_v)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,soma_cashell.cai,d50_cashell.cai,d190_cashell.cai,d190_v_mV",
                  refs, 20)
print("diam at the probes: soma %.6g, d50 %.6g, d190 %.6g um" % (s0.diam, d50.diam, d190.diam))
