"""neuron_point.py: NEURON's run of point_run.c's cell (one compartment L = diam = 20 um, pas g 1e-4 S/cm2 e -65 mV, the point process NAME of tests/nmodl/mod at its middle with its defaults, v_init -65 mV, dt 0.025 ms, 10 ms), given EVENTS W:T1,T2,... one NetCon without a source, weight W, delivering an event to NAME at each Tk ms, printed as a t check's point-process reference (NAME TPulse: tpulse_reference.csv; VStep: vstep_reference.csv; StpSyn with 0.002:1,3,3.5,4,6.025,9: stp_reference.csv; PulseSyn with 0.002:1,2,2.2,3.5,5,5.1,5.2,5.3,5.4,5.5,5.6,5.7,8: pulse_reference.csv; TrainSyn with 0.001:1,3,5.4,6.8: train_reference.csv); run from a folder where nrnivmodl compiled its .mod file. Usage: python neuron_point.py NAME [EVENTS]."""
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
if len(sys.argv) > 2:
    weight, times = sys.argv[2].split(":")
    nc = h.NetCon(None, pp)
    nc.weight[0] = float(weight)

    def queue_events():  # type 1: after finitialize has cleared the event queue
        for tk in times.split(","):
            nc.event(float(tk))

    fih = h.FInitializeHandler(1, queue_events)
run_and_write(sys.stdout, "t_ms,v_mV,%s.i" % name, (h._ref_t, soma(0.5)._ref_v, pp._ref_i), 10,
              fmts=("%.6f", "%.17g", "%.17g"))
