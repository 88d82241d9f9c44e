#!/usr/bin/env python3
"""grid_table.py: Markdown table of the seeds' Thomas grid from a hinesbatch bench CSV: every strategy against the faster cuSPARSE routine, AUTO against the best, OpenCL against CUDA.

Usage: grid_table.py BENCH.csv [BENCH2.csv ...] [--backend cuda]
For each uniform thomas point (precision, systems, rows) of BACKEND (default
cuda): the median time of each strategy forced (per-system, cooperative) and
of AUTO (what it chose in brackets); the faster of the two cuSPARSE routines
(gtsv2StridedBatch, gtsvInterleavedBatch) measured in the same run; the
ratio cuSPARSE / AUTO (> 1: hinesbatch faster); AUTO / best strategy (AUTO
within 10% of the best: <= 1.10); AUTO's fraction of a device copy of the
compulsory bytes; and NVIDIA OpenCL's AUTO time / CUDA's when present.
Geometric means per precision and over the grid close the table.
"""
import csv
import math
import sys
from collections import defaultdict


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def load(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            rows += [r for r in csv.DictReader(f) if r.get("kind") == "thomas"]
    return rows


def key(r):
    return (r["precision"], int(r["systems"]), int(r["rows_max"]))


def geomean(v):
    v = [x for x in v if x and x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None


def fmt(x, d=3):
    return "-" if x is None else f"{x:.{d}g}"


def table(rows, backend):
    pts = defaultdict(dict)
    for r in rows:
        if r["rows_min"] != r["rows_max"]:
            continue
        t = num(r["time_ms_median"])
        k = key(r)
        if r["backend"].startswith("cusparse"):
            pts[k][r["backend"]] = t
        elif r["backend"] in (backend, "opencl"):
            strat = r["strategy"]
            name = ("auto" if strat.startswith("auto:") else
                    "cooperative" if strat.endswith("cooperative") else "per-system")
            pts[k][f"{r['backend']}:{name}"] = t
            if name == "auto":
                pts[k][f"{r['backend']}:auto-chose"] = strat[5:].replace("thomas-", "")
                pts[k][f"{r['backend']}:auto-copy"] = num(r["fraction_of_copy"])
    out = ["| precision | systems x rows | per-system ms | cooperative ms | AUTO ms (chose) | "
           "faster cuSPARSE ms | cuSPARSE / AUTO | AUTO / best | AUTO of copy | OpenCL / CUDA |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    ratios, autobest = defaultdict(list), []
    for k in sorted(pts):
        p = pts[k]
        ps, co, au = (p.get(f"{backend}:{s}") for s in ("per-system", "cooperative", "auto"))
        cs = [p[b] for b in ("cusparse-strided", "cusparse-interleaved") if p.get(b)]
        csb = min(cs) if cs else None
        best = min([x for x in (ps, co) if x] or [None]) if (ps or co) else None
        ref = au or best
        ratio = csb / ref if csb and ref else None
        ab = au / best if au and best else None
        ocl = p.get("opencl:auto")
        if ratio:
            ratios[k[0]].append(ratio)
        if ab:
            autobest.append(ab)
        out.append(f"| {k[0]} | {k[1]} x {k[2]} | {fmt(ps)} | {fmt(co)} | {fmt(au)} "
                   f"({p.get(backend + ':auto-chose', '-')}) | {fmt(csb)} | {fmt(ratio)} | "
                   f"{fmt(ab)} | {fmt(p.get(backend + ':auto-copy'))} | "
                   f"{fmt(ocl / au if ocl and au else None)} |")
    out.append("")
    allr = [x for v in ratios.values() for x in v]
    for prec in sorted(ratios):
        v = ratios[prec]
        out.append(f"- {prec}: geometric mean cuSPARSE / AUTO {fmt(geomean(v))} over {len(v)} "
                   f"points, lowest {fmt(min(v))}")
    if allr:
        out.append(f"- whole grid: geometric mean {fmt(geomean(allr))} over {len(allr)} points, "
                   f"lowest {fmt(min(allr))}, points under 1.0: {sum(x < 1 for x in allr)}")
    if autobest:
        out.append(f"- AUTO / best forced strategy: worst {fmt(max(autobest))}, points over 1.10: "
                   f"{sum(x > 1.10 for x in autobest)} of {len(autobest)}")
    return "\n".join(out) + "\n"


def main(argv):
    backend, paths = "cuda", []
    it = iter(argv)
    for a in it:
        if a == "--backend":
            backend = next(it)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    sys.stdout.write(table(load(paths), backend))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
