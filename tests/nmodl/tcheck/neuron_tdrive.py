"""neuron_tdrive.py: NEURON's run of tdrive.json's cell (one compartment, tests/nmodl/mod/tdrive.mod alone, v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the t check's reference (reference.csv); run from a folder where nrnivmodl compiled tdrive.mod."""
import sys

from neuron import h
from neuron_run import run_and_write

h.load_file("stdrun.hoc")
soma = h.Section(name="soma")
soma.L = soma.diam = 20  # one compartment without a clamp: v does not depend on the area
soma.nseg = 1
soma.cm = 1
soma.insert("tdrive")
h.celsius = 6.3
h.dt = 0.025
h.secondorder = 0
seg = soma(0.5)
refs = (h._ref_t, seg._ref_v, seg._ref_a_tdrive, seg._ref_b_tdrive, seg._ref_i_tdrive)
with open(sys.argv[1], "w") as f:
    run_and_write(f, "t_ms,v_mV,tdrive.a,tdrive.b,tdrive.i", refs, 20)
