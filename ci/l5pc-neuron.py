"""l5pc-neuron.py: the reference run of a model description (data/models/l5pc/l5pc.json) in NEURON 9: its .mod files through nrnivmodl, the SWC through Import3d, a somatic current step; writes the soma's trace and spike times as CSV."""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
# Import3d names sections by SWC type.
SECTION_OF_TYPE = {1: "soma", 2: "axon", 3: "dend", 4: "apic"}
BUILTIN = {"pas"}  # NEURON's own pas has the same equation (i = g (v - e)) and names


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split(":", 1)[1].strip())
    ap.add_argument("--model", default=os.path.join(ROOT, "data", "models", "l5pc", "l5pc.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build-l5pc-neuron"))
    ap.add_argument("--amp", type=float, default=0.8, help="step current, nA")
    ap.add_argument("--delay", type=float, default=100.0, help="step start, ms")
    ap.add_argument("--dur", type=float, default=500.0, help="step duration, ms")
    ap.add_argument("--tstop", type=float, default=600.0, help="end of the run, ms")
    ap.add_argument("--dt", type=float, default=0.025, help="fixed time step, ms")
    ap.add_argument("--threshold", type=float, default=0.0,
                    help="spike: upward crossing of this soma voltage, mV")
    ap.add_argument("--record-every", type=int, default=1,
                    help="write every Nth step to the trace (spikes use every step)")
    return ap.parse_args()


def compile_mechanisms(model, model_dir, out):
    """Copies of the description's .mod files (less NEURON's built-ins) through nrnivmodl."""
    nrn = os.path.join(out, "nrn")
    shutil.rmtree(nrn, ignore_errors=True)
    os.makedirs(nrn)
    for name, rel in model["mechanisms"].items():
        if name not in BUILTIN:
            shutil.copy(os.path.join(model_dir, rel), nrn)
    subprocess.run(["nrnivmodl"], cwd=nrn, check=True, stdout=subprocess.DEVNULL)
    libs = [os.path.join(dp, f) for dp, _, fs in os.walk(nrn) for f in fs
            if f == "libnrnmech.so"]
    if not libs:
        sys.exit("l5pc-neuron: nrnivmodl made no libnrnmech.so in %s" % nrn)
    return libs[0]


def distribution(spec, d_um, d_max):
    """A parameter's value at path distance d_um (docs/mechanisms.md, "Model description
    files"): a number, or {"kind": linear | exp | window, "x": distance_um |
    distance_normalized, ...} times "scale"."""
    if not isinstance(spec, dict):
        return float(spec)
    x = d_um if spec["x"] == "distance_um" else d_um / d_max
    kind, scale = spec["kind"], spec.get("scale", 1.0)
    if kind == "exp":
        return scale * (spec["a"] + spec["b"] * math.exp(spec["c"] * (x - spec.get("x0", 0.0))))
    if kind == "linear":
        return scale * (spec["a"] + spec["b"] * x)
    if kind == "window":
        return scale * (spec["inside"] if spec["from"] <= x < spec["to"] else spec["outside"])
    raise ValueError("unknown distribution kind %r" % kind)


def build_cell(h, model, swc):
    h.load_file("stdlib.hoc")
    h.load_file("import3d.hoc")
    reader = h.Import3d_SWC_read()
    reader.input(swc)
    h.Import3d_GUI(reader, False).instantiate(None)
    secs = list(h.allsec())
    soma = [s for s in secs if s.name().startswith("soma")]
    # Distances from the SWC root sample (parent -1), where Import3d puts a
    # chain soma's 0 end and attaches the trees starting on the soma.
    root = None
    with open(swc) as f:
        for line in f:
            p = line.split()
            if p and not line.lstrip().startswith("#") and int(float(p[6])) == -1:
                root = tuple(float(c) for c in p[2:5])
                break
    s0 = soma[0]
    best, arc = None, 0.0
    for k in range(s0.n3d()):
        dd = sum((a - b) ** 2 for a, b in zip((s0.x3d(k), s0.y3d(k), s0.z3d(k)), root))
        if best is None or dd < best:
            best, arc = dd, s0.arc3d(k)
    origin = s0(arc / s0.L if s0.L > 0 else 0.5)
    disc = model["discretization"]
    assert disc["kind"] == "odd_per_length"
    for s in secs:
        s.nseg = 1 + 2 * int(s.L / disc["length_um"])
    h.distance(0, origin)
    by_type = {}
    for s in secs:
        prefix = s.name().split("[")[0]
        by_type.setdefault(prefix, []).append(s)
    ions = model["ions"]
    for ion, spec in ions.items():
        # Start values of the concentrations (NEURON's <ion>i0_<ion>_ion globals).
        for side in ("i0", "o0"):
            if ion + side in spec:
                setattr(h, "%s%s_%s_ion" % (ion, side, ion), spec[ion + side])
    counts = {}
    for region in model["regions"]:
        rsecs = by_type.get(SECTION_OF_TYPE[region["swc_type"]], [])
        counts[region["name"]] = (len(rsecs), sum(s.nseg for s in rsecs))
        if not rsecs:
            continue
        d_max = max(h.distance(s(1)) for s in rsecs)
        for s in rsecs:
            s.cm = region["cm"]
            s.Ra = region["Ra"]
            for mech, params in region["mechanisms"].items():
                s.insert(mech)
                for pname, spec in params.items():
                    for seg in s:
                        setattr(seg, "%s_%s" % (pname, mech),
                                distribution(spec, h.distance(seg), d_max))
            # Fixed reversal potentials where the ion is present.
            for ion, spec in ions.items():
                if spec["e"] != "nernst" and h.ismembrane(ion + "_ion", sec=s):
                    setattr(s, "e" + ion, spec["e"])
    return soma[0], secs, counts


def nonspecific(path):
    """The NONSPECIFIC_CURRENT names of a .mod file (NEURON records them per mechanism)."""
    out = []
    for line in open(path):
        words = line.split("COMMENT")[0].split(":")[0].replace(",", " ").split()
        if words and words[0] == "NONSPECIFIC_CURRENT":
            out += words[1:]
    return out


def spikes(t, v, thr):
    """Upward crossings of thr, linearly interpolated between samples."""
    out = []
    for k in range(1, len(v)):
        if v[k - 1] < thr <= v[k]:
            out.append(t[k - 1] + (thr - v[k - 1]) / (v[k] - v[k - 1]) * (t[k] - t[k - 1]))
    return out


def main():
    a = parse_args()
    model_path = os.path.abspath(a.model)
    model_dir = os.path.dirname(model_path)
    model = json.load(open(model_path))
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    lib = compile_mechanisms(model, model_dir, out)
    from neuron import h
    h.nrn_load_dll(lib)
    h.load_file("stdrun.hoc")
    swc = os.path.normpath(os.path.join(model_dir, model["morphology"]))
    soma, secs, counts = build_cell(h, model, swc)
    h.celsius = model["celsius"]
    stim = h.IClamp(soma(0.5))
    stim.delay, stim.dur, stim.amp = a.delay, a.dur, a.amp
    h.dt = a.dt
    h.steps_per_ms = 1.0 / a.dt
    h.secondorder = 0  # backward Euler, as the engine
    tv, vv, cv = h.Vector(), h.Vector(), h.Vector()
    tv.record(h._ref_t)
    vv.record(soma(0.5)._ref_v)
    cv.record(soma(0.5)._ref_cai)
    # Currents at the soma, NEURON's own recording (the value of the step
    # that ends at the sample; after finitialize at t = 0): the ions' totals
    # and the nonspecific currents of the mechanisms there (a mechanism's
    # share of an ion current is no variable in NEURON).
    cur = {}
    for ion in ("na", "k", "ca"):
        if hasattr(soma(0.5), "_ref_i" + ion):
            cur["i" + ion] = getattr(soma(0.5), "_ref_i" + ion)
    for name, spec in model["mechanisms"].items():
        if not hasattr(soma(0.5), name):
            continue
        for var in nonspecific(os.path.join(model_dir, spec)):
            cur[name + "." + var] = getattr(getattr(soma(0.5), name), "_ref_" + var)
    cvec = {k: h.Vector().record(ref) for k, ref in cur.items()}
    h.tstop = a.tstop
    h.v_init = model["v_init"]
    t0 = time.time()
    h.finitialize(model["v_init"])
    h.continuerun(a.tstop)
    wall = time.time() - t0
    t, v, cai = list(tv), list(vv), list(cv)
    sp = spikes(t, v, a.threshold)
    names = sorted(cvec)
    with open(os.path.join(out, "l5pc_soma.csv"), "w") as f:
        f.write("t_ms,v_soma_mV,cai_soma_mM%s\n" % "".join(",%s_soma" % n for n in names))
        cols = [t, v, cai] + [list(cvec[n]) for n in names]
        for row in list(zip(*cols))[::a.record_every]:
            f.write("%.6f" % row[0] + "".join(",%.17g" % x for x in row[1:]) + "\n")
    with open(os.path.join(out, "l5pc_spikes.csv"), "w") as f:
        f.write("spike,t_ms\n")
        for k, ts in enumerate(sp):
            f.write("%d,%.6f\n" % (k, ts))
    summary = {
        "neuron": h.nrnversion(), "model": os.path.relpath(model_path, ROOT),
        "morphology": os.path.relpath(swc, ROOT), "sections": len(secs),
        "segments": sum(s.nseg for s in secs),
        "regions": {k: {"sections": n, "segments": m} for k, (n, m) in counts.items()},
        "celsius": h.celsius, "v_init": model["v_init"], "dt": a.dt, "secondorder": 0,
        "stimulus": {"site": "soma(0.5)", "amp_nA": a.amp, "delay_ms": a.delay,
                     "dur_ms": a.dur}, "tstop": a.tstop, "threshold_mV": a.threshold,
        "record_every": a.record_every, "spikes": len(sp), "spike_times_ms": [round(x, 6) for x in sp],
        "wall_s": round(wall, 2),
    }
    json.dump(summary, open(os.path.join(out, "l5pc_summary.json"), "w"), indent=1)
    print("l5pc-neuron: %d sections, %d segments, %d spikes in %.0f ms (%.1f s): %s" % (
        len(secs), summary["segments"], len(sp), a.tstop, wall,
        " ".join("%.3f" % x for x in sp)))
    print("l5pc-neuron: wrote %s/l5pc_soma.csv, l5pc_spikes.csv, l5pc_summary.json" % out)


if __name__ == "__main__":
    main()
