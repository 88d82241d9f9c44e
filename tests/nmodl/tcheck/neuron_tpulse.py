"""neuron_tpulse.py: NEURON's run of tpulse_run.c's cell (one compartment L = diam = 20 um, pas g 1e-4 S/cm2 e -65 mV, tests/nmodl/mod/tpulse.mod's TPulse at its middle, v_init -65 mV, dt 0.025 ms, 10 ms), printed as the t check's point-process reference (tpulse_reference.csv); run from a folder where nrnivmodl compiled tpulse.mod."""
import sys

from neuron import h
from neuron_run import run_and_write

h.load_file("stdrun.hoc")
soma = h.Section(name="soma")
soma.L = soma.diam = 20  # the area of soma.swc's sphere of radius 10 um
soma.nseg = 1
soma.cm = 1
soma.insert("pas")
soma.g_pas = 1e-4
soma.e_pas = -65
pp = h.TPulse(soma(0.5))
h.dt = 0.025
h.secondorder = 0
h.celsius = 6.3
run_and_write(sys.stdout, "t_ms,v_mV,TPulse.i", (h._ref_t, soma(0.5)._ref_v, pp._ref_i), 10,
              fmts=("%.6f", "%.17g", "%.17g"))
