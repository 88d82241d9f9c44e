"""neuron_crw.py: NEURON's run of crw.json's cell (one compartment, L = diam = 20 um as soma.swc's sphere under Import3d; hh, caltest with pbar 2e-4 and crw; cai0 5e-5 mM, cao0 2 mM; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the read-and-written current check's reference (crw_reference.csv); run from a folder where nrnivmodl compiled cal.mod and crw.mod. Columns: t, the soma's v, then crw.json's probes in order."""
import sys

from neuron import h
from neuron_run import run_and_write

h.load_file("stdrun.hoc")
soma = h.Section(name="soma")
soma.L = soma.diam = 20
soma.nseg = 1
soma.cm, soma.Ra = 1.0, 100.0
for m in ("hh", "caltest", "crw"):
    soma.insert(m)
seg = soma(0.5)
seg.pbar_caltest = 2e-4
h.cai0_ca_ion, h.cao0_ca_ion = 5e-5, 2.0
h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
stim = h.IClamp(seg)
stim.delay, stim.dur, stim.amp = 2.0, 15.0, 1.0
# ica is the ion's total (caltest's and crw's pump), as the engine's probe of
# the ion reads it.
refs = (h._ref_t, seg._ref_v, seg._ref_cpool_crw, seg._ref_ipump_crw, seg._ref_cai, seg._ref_ica)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,crw.cpool,crw.ipump,cai,ica", refs, 20)
