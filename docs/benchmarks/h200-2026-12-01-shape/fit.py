#!/usr/bin/env python3
"""fit.py: fits AUTO's cost model (api/core/auto.c) to calls 1-2 of this record and checks its choices.

Run with the hinesbatch Python package and numpy (the tree shapes are read
through the package, cut as the bench cuts them):
    build/python-venv/bin/python docs/benchmarks/h200-2026-12-01-shape/fit.py
Prints each precision's constants, the fit's worst relative error, and AUTO
(the fastest modelled strategy) over the fastest forced strategy at every
point of call 1 (the fit) and call 2 (held-out trees).

The waves of cells are the library's: the backend's occupancy for the
plan's group and local memory. The cell-group kernels take 64 registers in
double and 56 in float on the H200 (the values the library logged in call
2 are reproduced exactly with these); local memory 228 KiB per SM, 1 KiB
reserved per block, 32 blocks, 2,048 threads.
"""
import csv
import math
import os
import re
import sys
import tarfile
import tempfile

import numpy as np
import hinesbatch as hb

HERE = os.path.dirname(os.path.abspath(__file__))
MORPH = os.path.join(HERE, "..", "..", "..", "data", "morphologies")
UNITS = 132
CHAIN = 8           # HB_CELL_CHAIN_AUTO
TRUNK_MAX = 64      # HB_CELL_TRUNK_MAX
MODEL_FROM_ROWS = 400


def cell(name):
    kind = name.split(":")
    if kind[0] == "branchy":
        return hb.Cell.synth_branchy(int(kind[1]), float(kind[2]), int(kind[3]))
    if kind[0] == "levels":
        return hb.Cell.synth_levels(int(kind[1]), int(kind[2]))
    if kind[0] == "random":  # the bench's random_cell
        return hb.Cell.synth_random(8, 1.0, 0.5, 200.0, 20.0, seed=int(kind[1]))
    for d in (MORPH, os.path.join(HERE, "trees")):
        if os.path.exists(os.path.join(d, name + ".swc")):
            return hb.load_swc(os.path.join(d, name + ".swc")).discretise(
                "section", nseg=0, d_lambda=0.1)
    raise SystemExit(f"fit.py: no tree {name}")


def schedule(par):
    """The cell-group schedule's levels as cell_schedule.c's tree_chains cuts
    them: (chains, longest) per level, the trunk's rows."""
    n = len(par)
    h, nch = [0] * n, [0] * n
    for i in range(n - 1, 0, -1):
        nch[par[i]] += 1
        h[par[i]] = max(h[par[i]], h[i] + 1)
    H = h[0]
    cnt = [0] * (H + 1)
    for i in range(n):
        cnt[h[i]] += 1
    ht = H
    while ht > 0 and cnt[ht - 1] == 1 and H - ht + 1 < TRUNK_MAX:
        ht -= 1
    top, run, ne, chains = [-1] * n, [0] * n, 0, []
    for i in range(n - 1, -1, -1):
        if h[i] >= ht:
            continue
        go = nch[i] == 1 and run[i] < CHAIN
        lv = top[i] if go else top[i] + 1
        run[i] = run[i] + 1 if go else 1
        ne = max(ne, lv + 1)
        top[par[i]] = max(top[par[i]], lv)
        run[par[i]] = run[i]
        if run[i] == 1:
            chains.append((lv, i))
    per = {}
    for lv, b in chains:
        length, i = 1, b
        while h[par[i]] < ht and run[par[i]] > 1:
            length, i = length + 1, par[i]
        per.setdefault(lv, []).append(length)
    levels = [(len(per.get(l, [])), max(per.get(l, [0]))) for l in range(ne)]
    return levels, ne + 1, H - ht + 1


def branches(par):
    """The branch cut (hb__tree_cut_make, no split): branches, levels, and the
    sum over levels of each level's longest branch."""
    n = len(par)
    nch = [0] * n
    for i in range(1, n):
        nch[par[i]] += 1
    bid, level, length = [0] * n, [], []
    for i in range(n):
        if i == 0 or nch[par[i]] != 1:
            bid[i] = len(level)
            level.append(0 if i == 0 else level[bid[par[i]]] + 1)
            length.append(0)
        else:
            bid[i] = bid[par[i]]
        length[bid[i]] += 1
    longest = [0] * (max(level) + 1)
    for b, l in enumerate(level):
        longest[l] = max(longest[l], length[b])
    return len(level), len(longest), sum(longest)


def resident(local, group, precision):
    regs = 64 if precision == "double" else 56
    warps = 65536 // (regs * 32)
    return max(1, min(233472 // (local + 1024), 2048 // group, 32, warps // (group // 32)))


def load(root):
    """Points of a call's archive: each tree, precision and batch with every
    forced strategy's median time (ms) and the cell-group plan's group."""
    points = {}
    for f in sorted(os.listdir(root)):
        if not f.endswith(".csv"):
            continue
        names, info = [], {}
        with open(os.path.join(root, f[:-4] + ".log")) as log:
            for line in log:
                m = re.search(r"(double|float) (\d+) x (\S+), layout auto, strategy (\S+):"
                              r".*median[^(]*(?:\((.*)\))?", line)
                if m:
                    names.append(os.path.basename(m.group(3)).replace(".swc", ""))
                    info[(names[-1], m.group(4))] = m.group(5) or ""
        with open(os.path.join(root, f)) as fh:
            rows = list(csv.DictReader(fh))
        for name, r in zip(names, rows):
            key = (name, r["precision"], int(r["systems"]))
            p = points.setdefault(key, {"name": name, "prec": key[1], "n": key[2],
                                        "rows": int(r["rows_max"])})
            s = r["strategy"]
            if s.startswith("auto"):
                continue
            p[{"per-system": "ps", "branch-level": "bl", "cell-group": "cg"}[s]] = \
                float(r["time_ms_median"]) * 1000
            if s == "cell-group":
                g, _, local = map(int, re.search(r"(\d+) work-items per cell, (\d+) levels, "
                                                 r"(\d+) B", info[(name, s)]).groups())
                p.update(g=g, local=local)
    return [p for p in points.values() if all(k in p for k in ("ps", "bl", "cg"))]


SHAPES = {}


def shape(p):
    if p["name"] not in SHAPES:
        par = np.asarray(cell(p["name"]).parent).tolist()
        SHAPES[p["name"]] = (schedule(par), branches(par))
    (levels, lc, nt), (nb, lb, cb) = SHAPES[p["name"]]
    g = p["g"]
    p.update(C=sum(math.ceil(c / g) * l for c, l in levels), nt=nt, lc=lc, nb=nb, lb=lb, cb=cb,
             waves=math.ceil(p["n"] / (UNITS * resident(p["local"], g, p["prec"]))),
             m=p["n"] / UNITS)
    return p


TERMS = {
    "ps": [lambda p: p["rows"], lambda p: p["rows"] * p["m"]],
    "bl": [lambda p: p["lb"], lambda p: p["cb"], lambda p: p["m"] * p["rows"],
           lambda p: p["m"] * p["nb"]],
    "cg": [lambda p: p["waves"] * p["C"], lambda p: p["waves"] * p["nt"],
           lambda p: p["waves"] * p["lc"], lambda p: p["m"], lambda p: p["m"] * p["rows"]],
}


def points():
    """The points of call 1 (the fit) and call 2 (held out, the model's rows)."""
    with tempfile.TemporaryDirectory() as tmp:
        return _points(tmp)


def _points(tmp):
    for c in ("call1", "call2"):
        with tarfile.open(os.path.join(HERE, c + ".tar.gz")) as t:
            # The "data" filter where this Python has it (3.11.4 on).
            t.extractall(tmp, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    fit_pts = [shape(p) for p in load(os.path.join(tmp, "call1"))]
    held = [shape(p) for p in load(os.path.join(tmp, "call2")) if p["rows"] >= MODEL_FROM_ROWS]
    return fit_pts, held


def fit(P):
    """Each strategy's constants, least squares on relative error, with the
    worst and rms relative errors: {strategy: (constants, worst, rms)}."""
    out = {}
    for s, terms in TERMS.items():
        y = np.array([p[s] for p in P])
        X = np.array([[t(p) for t in terms] for p in P])
        w, *_ = np.linalg.lstsq(X / y[:, None], np.ones(len(y)), rcond=None)
        err = np.abs(X @ w / y - 1)
        out[s] = (w, err.max(), np.sqrt(np.mean(err ** 2)))
    return out


def main():
    fit_pts, held = points()
    for prec in ("double", "float"):
        P = [p for p in fit_pts if p["prec"] == prec]
        w = {}
        for s, (c, worst, rms) in fit(P).items():
            w[s] = c
            print(f"{prec} {s}: " + ", ".join(f"{x:.4g}" for x in c) +
                  f"  (worst {worst:.1%}, rms {rms:.1%})")
        for tag, Q in (("fit", P), ("held out", [p for p in held if p["prec"] == prec])):
            worst = []
            for p in Q:
                model = {s: sum(c * t(p) for c, t in zip(w[s], TERMS[s])) for s in TERMS}
                pick = min(model, key=model.get)
                worst.append((p[pick] / min(p[s] for s in TERMS), p["n"], p["name"], pick))
            worst.sort(reverse=True)
            print(f"  {tag}: {len(Q)} points, AUTO / fastest worst {worst[0][0]:.2f} "
                  f"({worst[0][1]} x {worst[0][2]}: {worst[0][3]}), "
                  f"{sum(r <= 1.03 for r, *_ in worst)} within 3%")


if __name__ == "__main__":
    sys.exit(main())
