"""neuron_tdrive.py: NEURON's run of tdrive.json's cell (one compartment, tests/nmodl/mod/tdrive.mod alone, v_init -65 mV, 6.3 degC, dt 0.025 ms, 20 ms), written as the t check's reference (reference.csv); run from a folder where nrnivmodl compiled tdrive.mod."""
import sys

from neuron import h

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
names = ("t", "v", "a", "b", "i")
refs = (h._ref_t, seg._ref_v, seg._ref_a_tdrive, seg._ref_b_tdrive, seg._ref_i_tdrive)
vecs = [h.Vector() for _ in names]
for vec, ref in zip(vecs, refs):
    vec.record(ref)
h.finitialize(-65)
h.continuerun(20)
with open(sys.argv[1], "w") as f:
    f.write("t_ms,v_mV,tdrive.a,tdrive.b,tdrive.i\n")
    for k in range(len(vecs[0])):
        f.write(",".join("%.17g" % vec[k] for vec in vecs) + "\n")
