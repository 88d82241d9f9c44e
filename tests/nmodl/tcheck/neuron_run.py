"""neuron_run.py: the shared end of the t checks' NEURON reference scripts (neuron_tdrive.py, neuron_tpulse.py, neuron_cashell.py, neuron_cpool.py, neuron_karea.py): record, run from v_init to tstop, write the records as CSV."""
from neuron import h


def run_and_write(out, header, refs, tstop, fmts=None, v_init=-65):
    """Records each of refs (h._ref_t first), runs finitialize(v_init) then
    continuerun(tstop) (stdrun.hoc loaded by the caller), and writes header and
    one row per step to the file object out; fmts: a printf format per column
    (default %.17g: every digit of a double)."""
    vecs = [h.Vector() for _ in refs]
    for vec, ref in zip(vecs, refs):
        vec.record(ref)
    h.finitialize(v_init)
    h.continuerun(tstop)
    fmts = fmts or ["%.17g"] * len(refs)
    out.write(header + "\n")
    for k in range(len(vecs[0])):
        out.write(",".join(f % vec[k] for f, vec in zip(fmts, vecs)) + "\n")
