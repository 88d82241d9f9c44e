"""neuron_cashells.py: NEURON's run of cashells.json's cell (taper.swc under Import3d, nseg 1 + 2 floor(L/40); hh, caltest and cashells everywhere, caltest's pbar 2e-4; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the arrays check's reference (cashells_reference.csv); run from a folder where nrnivmodl compiled cal.mod and cashells.mod. Columns: t, the soma's v, then cashells.json's probes in order."""
import sys

from neuron import h
from neuron_run import run_and_write, taper_cell

h.load_file("stdrun.hoc")
h.load_file("import3d.hoc")
secs, soma, nearest, stim = taper_cell(("hh", "caltest", "cashells"))
for s in secs:
    for seg in s:
        seg.pbar_caltest = 2e-4
h.cai0_ca_ion, h.cao0_ca_ion = 5e-5, 2.0
h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
s0, d190 = soma(0.5), nearest(190)
refs = (h._ref_t, s0._ref_v, s0._ref_cai, s0.cashells._ref_ca[3], d190.cashells._ref_ca[0],
        d190.cashells._ref_cabuf[3], d190._ref_v)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,soma_cai,soma_cashells.ca[3],d190_cashells.ca[0],"
                  "d190_cashells.cabuf[3],d190_v_mV", refs, 20)
print("diam at the probes: soma %.6g, d190 %.6g um" % (s0.diam, d190.diam))
