"""neuron_run.py: the shared parts of the t checks' NEURON reference scripts (neuron_tdrive.py, neuron_point.py, neuron_cashell.py, neuron_cpool.py, neuron_karea.py, neuron_cashells.py, neuron_gclamp.py, neuron_crw.py): taper.swc's cell as the geometry checks build it, the pool checks' one compartment, and the end: record, run from v_init to tstop, write the records as CSV."""
import math
import os

from neuron import h


def taper_cell(mechs):
    """taper.swc under Import3d (stdrun.hoc and import3d.hoc loaded by the
    caller), nseg 1 + 2 floor(L/40), cm 1, Ra 100, mechs inserted everywhere;
    IClamp 1 nA at soma(0.5) from 2 to 17 ms. Returns (sections, soma,
    nearest, stim): nearest(dist) is the dendrite segment whose centre is
    nearest dist um from soma(0.5)."""
    r = h.Import3d_SWC_read()
    r.input(os.path.join(os.path.dirname(os.path.abspath(__file__)), "taper.swc"))
    h.Import3d_GUI(r, False).instantiate(None)
    secs = list(h.allsec())
    soma = [s for s in secs if s.name().startswith("soma")][0]
    for s in secs:
        s.nseg = 1 + 2 * int(math.floor(s.L / 40.0))
        s.cm, s.Ra = 1.0, 100.0
        for m in mechs:
            s.insert(m)
    stim = h.IClamp(soma(0.5))
    stim.delay, stim.dur, stim.amp = 2.0, 15.0, 1.0

    def nearest(dist):
        segs = [seg for s in secs if not s.name().startswith("soma") for seg in s]
        return min(segs, key=lambda seg: abs(h.distance(soma(0.5), seg) - dist))

    return secs, soma, nearest, stim


def calcium_soma(mechs):
    """One compartment as soma.swc's sphere comes out of Import3d (L = diam =
    20 um, one segment; cm 1, Ra 100; stdrun.hoc loaded by the caller) with
    mechs inserted, caltest's pbar 2e-4, cai0 5e-5 mM and cao0 2 mM, 6.3
    degC, dt 0.025 ms, NEURON's first-order step; IClamp 1 nA at soma(0.5)
    from 2 to 17 ms: the cell of the pool checks (neuron_cpool.py,
    neuron_crw.py). Returns (soma(0.5), stim)."""
    soma = h.Section(name="soma")
    soma.L = soma.diam = 20
    soma.nseg = 1
    soma.cm, soma.Ra = 1.0, 100.0
    for m in mechs:
        soma.insert(m)
    seg = soma(0.5)
    seg.pbar_caltest = 2e-4
    h.cai0_ca_ion, h.cao0_ca_ion = 5e-5, 2.0
    h.celsius, h.usetable_hh, h.dt, h.secondorder = 6.3, 0, 0.025, 0
    stim = h.IClamp(seg)
    stim.delay, stim.dur, stim.amp = 2.0, 15.0, 1.0
    return seg, stim


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
