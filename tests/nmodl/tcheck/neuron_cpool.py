"""neuron_cpool.py: NEURON's run of cpool.json's cell (one compartment, L = diam = 20 um as soma.swc's sphere under Import3d; hh, caltest with pbar 2e-4 and cpool; cai0 5e-5 mM, cao0 2 mM; IClamp 1 nA at soma(0.5) from 2 to 17 ms; v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the pool check's reference (cpool_reference.csv); run from a folder where nrnivmodl compiled cal.mod and cpool.mod. Columns: t, the soma's v, then cpool.json's probes in order."""
import sys

from neuron import h
from neuron_run import calcium_soma, run_and_write

h.load_file("stdrun.hoc")
seg, stim = calcium_soma(("hh", "caltest", "cpool"))
# cpool.cai is the ion's cai, which cpool writes: NEURON has the one value.
refs = (h._ref_t, seg._ref_v, seg._ref_cpl_cpool, seg._ref_cai, seg._ref_cai, seg._ref_ica)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,soma_v_mV,cpool.cpl,cpool.cai,cai,ica", refs, 20)
