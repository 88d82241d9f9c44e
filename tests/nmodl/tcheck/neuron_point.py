"""neuron_point.py: NEURON's run of point_run.c's cell (one compartment L = diam = 20 um, pas g 1e-4 S/cm2 e -65 mV, the point process NAME of tests/nmodl/mod at its middle with its defaults, v_init -65 mV, dt 0.025 ms, 10 ms), printed as a t check's point-process reference (NAME TPulse: tpulse_reference.csv; VStep: vstep_reference.csv); run from a folder where nrnivmodl compiled its .mod file. Usage: python neuron_point.py NAME."""
import sys

from neuron import h
from neuron_run import run_and_write

name = sys.argv[1]
h.load_file("stdrun.hoc")
soma = h.Section(name="soma")
soma.L = soma.diam = 20  # the area of soma.swc's sphere of radius 10 um
soma.nseg = 1
soma.cm = 1
soma.insert("pas")
soma.g_pas = 1e-4
soma.e_pas = -65
pp = getattr(h, name)(soma(0.5))
h.dt = 0.025
h.secondorder = 0
h.celsius = 6.3
run_and_write(sys.stdout, "t_ms,v_mV,%s.i" % name, (h._ref_t, soma(0.5)._ref_v, pp._ref_i), 10,
              fmts=("%.6f", "%.17g", "%.17g"))
