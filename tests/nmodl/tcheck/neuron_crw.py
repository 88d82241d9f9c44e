"""neuron_crw.py: NEURON's run of crw.json's cell (one compartment, L = diam = 20 um as soma.swc's sphere under Import3d; hh, caltest with pbar 2e-4 and crw; cai0 5e-5 mM, cao0 2 mM; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the read-and-written current check's reference (crw_reference.csv); run from a folder where nrnivmodl compiled cal.mod and crw.mod. Columns: t, the soma's v, then crw.json's probes in order."""
import sys

from neuron import h
from neuron_run import calcium_soma, run_and_write

h.load_file("stdrun.hoc")
seg, stim = calcium_soma(("hh", "caltest", "crw"))
# ica is the ion's total (caltest's and crw's pump), as the engine's probe of
# the ion reads it.
refs = (h._ref_t, seg._ref_v, seg._ref_cpool_crw, seg._ref_ipump_crw, seg._ref_cai, seg._ref_ica)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,crw.cpool,crw.ipump,cai,ica", refs, 20)
