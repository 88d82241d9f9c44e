"""neuron_import_check.py: NEURON imports an SWC itself (Import3d); its segments and soma trace against hinesbatch's --neuron-conventions.

Usage (run by ci/neuron-import-check.sh):
  python neuron_import_check.py generate SEED OUT.swc
      A random SWC file through Import3d's special cases (see generate()).
  python neuron_import_check.py geometry SWC NSEG CELL_CSV
      NSEG: a fixed nseg (> 0) or 0 for the d_lambda rule (0.1 at 100 Hz).
      CELL_CSV: hinesbatch simulate --dump-cell of the same file and nseg.
      Builds NEURON's node graph from its own segments (seg.area(), ri()),
      folds the zero-area section-end nodes exactly as docs/morphology.md
      says, and compares every compartment's area and axial conductance with
      hinesbatch's, walking both trees from the root section's middle.
  python neuron_import_check.py trace SWC NSEG HH_ALL AMP TRACE_CSV SPIKES_CSV
      NEURON runs its own import (HH at the soma or everywhere, pas elsewhere,
      IClamp at the root section's middle) and compares the soma voltage
      and spike times with hinesbatch's recording.
"""
import csv
import sys

import numpy as np
from neuron import h

RA, CM, DT, CELSIUS, VINIT, TSTOP = 35.4, 1.0, 0.025, 6.3, -65.0, 50.0
GL, EL, ENA, EK, THR = 0.0003, -54.3, 50.0, -77.0, -20.0
ONSET, DUR = 5.0, 40.0
GEOM_TOL, V_TOL, SPIKE_TOL = 1e-9, 0.2, 0.05


class Cell:
    pass


def load_cell(swc, nseg):
    """One cell of NEURON's own import of the file (a file read again gives
    another cell), Ra/cm set, nseg fixed or by d_lambda: the cell, its
    sections, its root section. ci/net_neuron.py builds its networks with it."""
    h.load_file("stdrun.hoc")
    h.load_file("import3d.hoc")
    reader = h.Import3d_SWC_read()
    reader.quiet = 1
    reader.input(swc)
    cell = Cell()
    h.Import3d_GUI(reader, False).instantiate(cell)
    secs = list(cell.all)
    for s in secs:
        s.Ra, s.cm = RA, CM
    for s in secs:  # after Ra and cm everywhere: lambda_f reads them
        if nseg > 0:
            s.nseg = nseg
        else:
            s.nseg = int((s.L / (0.1 * h.lambda_f(100, sec=s)) + 0.9) / 2) * 2 + 1
    roots = [s for s in secs if s.parentseg() is None]
    assert len(roots) == 1, "one root section expected"
    return cell, secs, roots[0]


def load(swc, nseg):
    """The file's one cell: its sections and root section (the cell object
    stays alive with the sections)."""
    _, secs, root = load_cell(swc, nseg)
    return secs, root


def insert_model(secs, hh_all):
    """hh (NEURON's gnabar and gkbar, our gl and el) in the soma sections or,
    with hh_all, everywhere; pas (gl, el) elsewhere."""
    for s in secs:
        soma = s.name().split(".")[-1].startswith("soma")
        if hh_all or soma:
            s.insert("hh")
            for seg in s:
                seg.hh.gnabar, seg.hh.gkbar, seg.hh.gl, seg.hh.el = 0.12, 0.036, GL, EL
            s.ena, s.ek = ENA, EK
        else:
            s.insert("pas")
            for seg in s:
                seg.pas.g, seg.pas.e = GL, EL


def seg_index(sec, x):
    """The segment of sec that holds x, as NEURON maps it."""
    return min(int(sec(x).x * sec.nseg), sec.nseg - 1)


def neuron_graph(secs, root):
    """Nodes (area, diameter) and edges (conductance, uS) of NEURON's matrix,
    then the zero-area nodes folded: one neighbour dropped, two in series, more
    kept (their diameter: the 3-D diameter at their point)."""
    area, diam, edges = {}, {}, []
    for s in secs:
        for j, seg in enumerate(s):
            area[(s, j)] = seg.area()
            diam[(s, j)] = seg.diam
        area[(s, "end")] = 0.0
        diam[(s, "end")] = s.diam3d(s.n3d() - 1)
    area[(root, "start")] = 0.0
    diam[(root, "start")] = root.diam3d(0)

    def join(sec, x):
        while x == 0 and sec.parentseg() is not None:
            ps = sec.parentseg()
            sec, x = ps.sec, ps.x
        if x == 0:
            return (sec, "start")
        if x == 1:
            return (sec, "end")
        return (sec, seg_index(sec, x))

    for s in secs:
        for j, seg in enumerate(s):
            g = 1.0 / h.ri(seg.x, sec=s)  # MOhm -> uS
            if j > 0:
                other = (s, j - 1)
            elif s is root:
                other = (root, "start")
            else:
                ps = s.parentseg()
                other = join(ps.sec, ps.x)
            edges.append([(s, j), other, g])
        edges.append([(s, "end"), (s, s.nseg - 1), 1.0 / h.ri(1, sec=s)])
    inc = {}
    for e in edges:
        inc.setdefault(e[0], []).append(e)
        inc.setdefault(e[1], []).append(e)
    gone = set()
    for v in list(area):
        if not isinstance(v[1], str):
            continue
        es = [e for e in inc[v] if id(e) not in gone]
        if len(es) == 1:
            gone.add(id(es[0]))
            del area[v]
        elif len(es) == 2:
            a = es[0][1] if es[0][0] == v else es[0][0]
            b = es[1][1] if es[1][0] == v else es[1][0]
            g = 1.0 / (1.0 / es[0][2] + 1.0 / es[1][2])
            gone.add(id(es[0]))
            gone.add(id(es[1]))
            ne = [a, b, g]
            edges.append(ne)
            inc[a].append(ne)
            inc[b].append(ne)
            del area[v]
    live = [e for e in edges if id(e) not in gone]
    keys = list(area)
    index = {k: i for i, k in enumerate(keys)}
    adj = [[] for _ in keys]
    for a, b, g in live:
        adj[index[a]].append((index[b], g))
        adj[index[b]].append((index[a], g))
    r = index[(root, seg_index(root, 0.5))]
    parent, gpar, order = [-2] * len(keys), [0.0] * len(keys), [r]
    parent[r] = -1
    for v in order:
        for w, g in adj[v]:
            if parent[w] == -2:
                parent[w], gpar[w] = v, g
                order.append(w)
    assert len(order) == len(keys), "NEURON's graph is not one tree"
    return r, parent, [area[k] for k in keys], gpar, [diam[k] for k in keys]


def hb_graph(cell_csv):
    rows = list(csv.DictReader(open(cell_csv)))
    parent = [int(r["parent"]) for r in rows]
    root = parent.index(-1)
    return (root, parent, [float(r["area_um2"]) for r in rows],
            [float(r["g_axial_uS"]) for r in rows], [float(r["diam_um"]) for r in rows])


def walk_pairs(a, b):
    """Pairs of nodes of two rooted trees, children matched by the size and
    area of their subtrees (sorted), from the roots down."""
    def prep(t):
        root, parent, area = t[0], t[1], t[2]
        kids = [[] for _ in parent]
        for v, p in enumerate(parent):
            if p >= 0:
                kids[p].append(v)
        size, tot = [1] * len(parent), list(area)
        order = [root]
        for v in order:
            order.extend(kids[v])
        for v in reversed(order):
            for w in kids[v]:
                size[v] += size[w]
                tot[v] += tot[w]
        for v in range(len(parent)):
            kids[v].sort(key=lambda w: (size[w], tot[w]))
        return kids, size
    ka, sa = prep(a)
    kb, sb = prep(b)
    stack, pairs = [(a[0], b[0])], []
    while stack:
        u, v = stack.pop()
        pairs.append((u, v))
        if len(ka[u]) != len(kb[v]) or [sa[w] for w in ka[u]] != [sb[w] for w in kb[v]]:
            return pairs, False
        stack.extend(zip(ka[u], kb[v]))
    return pairs, True


def rel(x, y):
    s = max(abs(x), abs(y))
    return abs(x - y) / s if s > 0 else 0.0


def geometry(swc, nseg, cell_csv):
    secs, root = load(swc, nseg)
    nrn = neuron_graph(secs, root)
    hb = hb_graph(cell_csv)
    nsegs = sum(s.nseg for s in secs)
    kept = sum(1 for x in nrn[2] if x == 0.0)
    print("  NEURON: %d sections, %d segments, %d zero-area nodes kept -> %d compartments; "
          "hinesbatch %d" % (len(secs), nsegs, kept, len(nrn[1]), len(hb[1])))
    if len(nrn[1]) != len(hb[1]):
        print("  FAIL: compartment counts differ")
        return False
    pairs, same = walk_pairs(nrn, hb)
    if not same:
        print("  FAIL: the trees differ in shape (at pair %d)" % len(pairs))
        return False
    wa = max(rel(nrn[2][u], hb[2][v]) for u, v in pairs)
    wg = max(rel(nrn[3][u], hb[3][v]) for u, v in pairs if nrn[1][u] >= 0)
    wd = max(rel(nrn[4][u], hb[4][v]) for u, v in pairs)
    print("  every compartment: area within %.1e, axial conductance within %.1e, diameter "
          "within %.1e (relative)" % (wa, wg, wd))
    ok = wa <= GEOM_TOL and wg <= GEOM_TOL and wd <= GEOM_TOL
    print("  %s" % ("PASS" if ok else "FAIL"))
    return ok


def crossings(v):
    return [(j - 1 + (THR - v[j - 1]) / (v[j] - v[j - 1])) * DT
            for j in range(1, len(v)) if v[j - 1] < THR <= v[j]]


def trace(swc, nseg, hh_all, amp, trace_csv, spikes_csv):
    secs, root = load(swc, nseg)
    insert_model(secs, hh_all)
    h.celsius, h.usetable_hh, h.dt, h.steps_per_ms, h.secondorder = CELSIUS, 0, DT, 1 / DT, 0
    stim = h.IClamp(root(0.5))
    stim.delay, stim.dur, stim.amp = ONSET, DUR, amp
    rec = h.Vector().record(root(0.5)._ref_v)
    h.finitialize(VINIT)
    h.tstop = TSTOP
    h.run()
    vn = np.array(rec)
    rows = list(csv.reader(open(trace_csv)))[1:]
    vb = np.array([float(r[1]) for r in rows])
    t = np.array([float(r[0]) for r in rows])
    n = min(len(vn), len(vb))
    sn, sb = crossings(vn[:n]), crossings(vb[:n])
    lib = [float(r["spike_ms"]) for r in csv.DictReader(open(spikes_csv)) if r["cell"] == "0"]
    dv = np.abs(vn[:n] - vb[:n])
    mask = np.ones(n, bool)
    for ts in sn + sb:
        mask &= np.abs(t[:n] - ts) > 2.0
    dts = max([abs(x - y) for x, y in zip(sn, sb)], default=0.0)
    print("  spikes: NEURON %d [%s], hinesbatch %d [%s] (library's own: %d)"
          % (len(sn), " ".join("%.3f" % x for x in sn), len(sb),
             " ".join("%.3f" % x for x in sb), len(lib)))
    away = dv[mask].max() if mask.any() else 0.0
    print("  max |spike time difference| %.2e ms; max |V difference| %.2e mV overall, "
          "%.2e mV away from spikes (+-2 ms)" % (dts, dv.max(), away))
    ok = (len(vn) == len(vb) and len(sn) == len(sb) == len(lib) and dts <= SPIKE_TOL
          and dv.max() <= V_TOL)
    print("  %s (V within %g mV everywhere, spike times within %g ms)"
          % ("PASS" if ok else "FAIL", V_TOL, SPIKE_TOL))
    return ok


def generate(seed, path):
    """A random SWC file that walks Import3d's special cases: a soma of one,
    three or several samples (or none), neurites hung on the soma's first,
    interior and last samples and on dendrite points (first points too:
    Import3d's connect2prox), one-sample branches, type changes, repeated
    points (zero-length pieces and sections), children listed far from their
    parents, tapering radii. Every parent's id below its child's, as Import3d
    needs."""
    import random
    rng = random.Random(seed)
    pts = []  # [type, x, y, z, r, parent index]

    def add(t, x, y, z, r, p):
        pts.append([t, round(x, 3), round(y, 3), round(z, 3), round(r, 4), p])
        return len(pts) - 1

    kind = rng.choice(["one", "three", "chain", "chain", "none"])
    r0 = rng.uniform(3, 9)
    if kind == "none":
        add(3, 0, 0, 0, rng.uniform(0.5, 2), -1)
    else:
        add(1, 0, 0, 0, r0, -1)
    if kind == "three":
        add(1, 0, -r0, 0, r0, 0)
        add(1, 0, r0, 0, r0, 0)
    elif kind == "chain":
        for _ in range(rng.randint(1, 5)):
            q = len(pts) - 1
            add(1, pts[q][1] + rng.uniform(-2, 2), pts[q][2] + rng.uniform(1, 4),
                pts[q][3] + rng.uniform(-1, 1), rng.uniform(2, 9), q)
    for _ in range(rng.randint(2, 9)):
        p = rng.randrange(len(pts))
        if kind == "three" and p in (1, 2):
            p = 0  # the 3-point soma's tips take no children
        t = rng.choice([2, 3, 3, 4]) if pts[p][0] == 1 or rng.random() < 0.2 else pts[p][0]
        n = rng.choice([1, 1, 2, 3, 4, 6])
        x, y, z, r = pts[p][1], pts[p][2], pts[p][3], min(pts[p][4], rng.uniform(0.3, 2.5))
        if pts[p][0] == 1:
            d = rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)
            norm = max(1e-9, sum(c * c for c in d) ** 0.5)
            x, y, z = (c + pts[p][4] * e / norm for c, e in zip((x, y, z), d))
        q = p
        for k in range(n):
            if rng.random() < 0.1:  # a repeated point: a piece of no length
                pass
            else:
                x, y, z = x + rng.uniform(-15, 15), y + rng.uniform(-15, 15), z + rng.uniform(-5, 5)
            r = max(0.1, r * rng.uniform(0.8, 1.1))
            q = add(t, x, y, z, r, q)
            if rng.random() < 0.15:  # a side branch of one sample right here
                add(t, x + rng.uniform(-9, 9), y + rng.uniform(-9, 9), z, r, q)
    with open(path, "w") as f:
        for i, (t, x, y, z, r, p) in enumerate(pts):
            f.write("%d %d %g %g %g %g %d\n" % (i + 1, t, x, y, z, r, p + 1 if p >= 0 else -1))
    return True


def main(argv):
    if argv[1] == "generate":
        return generate(int(argv[2]), argv[3])
    if argv[1] == "geometry":
        return geometry(argv[2], int(argv[3]), argv[4])
    return trace(argv[2], int(argv[3]), int(argv[4]), float(argv[5]), argv[6], argv[7])


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv) else 1)
