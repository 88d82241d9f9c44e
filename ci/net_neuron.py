"""net_neuron.py: NEURON's own run of hinesbatch's network benchmarks (ring, random) with ParallelContext, from the same SWC (Import3d) and connection list; spike times against `hinesbatch network`'s.

Usage (run by ci/net-neuron-check.sh):
  python net_neuron.py connections ring|random N SEED OUT.csv
      The connection list both simulators read (src,dst,weight,delay): a
      ring (weight 0.5 uS, delay 1 ms) or a random network (fan-in 10 from
      cells drawn with SEED, weights in [0, 0.4] uS, delays in [1, 5] ms).
  python net_neuron.py run SWC N CONNECTIONS TSTOP HB_SPIKES.csv
      NEURON: N cells from its own import of SWC (d_lambda 0.1), hh at the
      soma section (gl 0.0003, el -54.3), pas elsewhere, one ExpSyn (tau
      2 ms, e 0) at the root section's middle, NetCons from the same spot
      (threshold -20 mV) as the file says, the first tenth of the cells
      kicked at 1 ms with 0.5 uS (cell 0 alone in a ring; hinesbatch's
      --weight 0.5 with --connections); dt 0.025 ms, 6.3 degC.
      Compares every spike (same cells, same count) with hinesbatch's.
"""
import csv
import math
import random
import sys

from neuron import h

# The import, constants and model of ci/neuron_import_check.py (same folder).
from neuron_import_check import CELSIUS, DT, SPIKE_TOL, THR, VINIT, insert_model, load_cell


def connections(kind, n, seed, out):
    rng = random.Random(seed)
    rows = []
    for dst in range(n):
        if kind == "ring":
            rows.append(((dst - 1) % n, dst, 0.5, 1.0))
            continue
        for _ in range(10):
            src = rng.randrange(n)
            if src != dst:
                rows.append((src, dst, 0.4 * rng.random(), 1.0 + 4.0 * rng.random()))
    with open(out, "w") as f:
        f.write("src,dst,weight,delay\n")
        for r in rows:
            f.write("%d,%d,%.17g,%.17g\n" % r)


def load(swc):
    """One cell (d_lambda 0.1), hh at the soma, pas elsewhere; cell.root."""
    cell, secs, root = load_cell(swc, 0)
    insert_model(secs, False)
    cell.root = root
    return cell


def run(swc, n, conn_csv, tstop, hb_csv):
    h.load_file("stdrun.hoc")
    h.load_file("import3d.hoc")
    pc = h.ParallelContext()
    rows = [(int(r["src"]), int(r["dst"]), float(r["weight"]), float(r["delay"]))
            for r in csv.DictReader(open(conn_csv))]
    ring = all(w == 0.5 for _, _, w, _ in rows) and len(rows) == n
    cells, syns = [], []
    for gid in range(n):
        c = load(swc)
        cells.append(c)
        syn = h.ExpSyn(c.root(0.5))
        syn.tau, syn.e = 2.0, 0.0
        syns.append(syn)
        pc.set_gid2node(gid, pc.id())
        nc = h.NetCon(c.root(0.5)._ref_v, None, sec=c.root)
        nc.threshold = THR
        pc.cell(gid, nc)
    ncs = []
    for src, dst, w, d in rows:
        nc = pc.gid_connect(src, syns[dst])
        nc.weight[0], nc.delay = w, d
        ncs.append(nc)
    kicked = [0] if ring else list(range((n + 9) // 10))
    wk = 0.5  # hinesbatch network --weight 0.5: its kick's weight
    kicks = []
    for gid in kicked:
        k = h.NetCon(None, syns[gid])
        k.weight[0] = wk
        kicks.append(k)
    tv, gv = h.Vector(), h.Vector()
    pc.spike_record(-1, tv, gv)
    h.celsius, h.usetable_hh, h.dt, h.steps_per_ms, h.secondorder = CELSIUS, 0, DT, 1 / DT, 0
    h.finitialize(VINIT)
    for k in kicks:
        k.event(1.0)
    pc.set_maxstep(10)
    pc.psolve(tstop)
    # NEURON checks a step's threshold crossings as the next step begins: a
    # crossing in the last step is not recorded by psolve(tstop). Both lists
    # keep the spikes of steps ending before tstop.
    nrn = [(t, g) for t, g in sorted(zip(list(tv), [int(g) for g in gv])) if t < tstop - DT / 2]
    hb = [(float(r["spike_ms"]), int(r["gid"])) for r in csv.DictReader(open(hb_csv))]
    hb = [(t, g) for t, g in hb if math.ceil(t / DT - 1e-9) * DT < tstop - DT / 2]
    # NEURON's fixed step records a spike at the end of its step; hinesbatch
    # reports the interpolated crossing, whose step end is comparable exactly.
    by_n, by_h = {}, {}
    for t, g in nrn:
        by_n.setdefault(g, []).append(t)
    for t, g in hb:
        by_h.setdefault(g, []).append(t)
    worst, worst_end, same = 0.0, 0.0, set(by_n) == set(by_h)
    for g in by_n:
        a, b = by_n[g], by_h.get(g, [])
        if len(a) != len(b):
            same = False
            continue
        for x, y in zip(a, b):
            worst = max(worst, abs(x - y))
            end = math.ceil(y / DT - 1e-9) * DT
            worst_end = max(worst_end, abs(x - end))
    print("  NEURON %d spikes of %d cells, hinesbatch %d of %d; first: NEURON %s, hinesbatch %s"
          % (len(nrn), len(by_n), len(hb), len(by_h),
             " ".join("%d@%.3f" % (g, t) for t, g in nrn[:4]),
             " ".join("%d@%.3f" % (g, t) for t, g in hb[:4])))
    print("  max |spike time difference| %.3e ms (hinesbatch's step end vs NEURON's: %.3e ms)"
          % (worst, worst_end))
    ok = same and len(nrn) == len(hb) and len(nrn) > 0 and worst <= SPIKE_TOL
    print("  %s (the same spikes of the same cells, times within %g ms)"
          % ("PASS" if ok else "FAIL", SPIKE_TOL))
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "connections":
        connections(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1] == "run":
        sys.exit(0 if run(sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]),
                          sys.argv[6]) else 1)
    else:
        sys.exit("usage: see the docstring")
