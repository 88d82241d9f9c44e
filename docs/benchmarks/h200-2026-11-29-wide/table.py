#!/usr/bin/env python3
"""table.py: this record's table: per point of the long Thomas grid, AUTO before (one system alone held to 48 KiB), AUTO now, and one group per system (HINESBATCH_COOP_SPAN=1), each against the faster cuSPARSE routine timed in the same bench call."""
import csv
import re
import sys
from pathlib import Path

RUNS = [("before", "48 KiB alone (before)"), ("new", "AUTO now"), ("g1", "one group per system")]
LOG = re.compile(r"bench: cuda +thomas \S+ (\w+) (\d+) x (\d+) rows.*median ([\d.e+-]+) ms.*\((.*)\)\s*$")


def load(folder, run, prec):
    """{(systems, rows): (ours ms, fastest cuSPARSE ms, variant)} of one bench call."""
    pts = {}
    path = folder / f"{run}-{prec}.csv"
    if not path.exists():
        return pts
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (int(r["systems"]), int(r["rows_max"]))
            t = float(r["time_ms_median"])
            ours, cus, var = pts.get(key, (None, None, ""))
            if r["backend"].startswith("cusparse"):
                cus = t if cus is None else min(cus, t)
            elif r["backend"] == "cuda":
                ours = t
            pts[key] = (ours, cus, var)
    log = folder / f"{run}-{prec}.log"
    if log.exists():
        for line in log.read_text().splitlines():
            m = LOG.match(line)
            if m and m.group(1) == prec:
                key = (int(m.group(2)), int(m.group(3)))
                if key in pts:
                    ours, cus, _ = pts[key]
                    var = m.group(5).split(",")[0]
                    pts[key] = (ours, cus, var)
    return pts


def fmt(x, spec="{:.4g}"):
    return "-" if x is None else spec.format(x)


def main():
    folder = Path(sys.argv[1])
    for prec in ("double", "float"):
        data = {run: load(folder, run, prec) for run, _ in RUNS}
        keys = sorted(set().union(*[d.keys() for d in data.values()]))
        if not keys:
            continue
        print(f"\n### {prec}\n")
        head = ["systems x rows"]
        for _, title in RUNS:
            head += [f"{title} ms (variant)", "cuSPARSE ms", "cuSPARSE / it"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        geo = {run: [] for run, _ in RUNS}
        for k in keys:
            row = [f"{k[0]} x {k[1]}"]
            for run, _ in RUNS:
                ours, cus, var = data[run].get(k, (None, None, ""))
                ratio = cus / ours if ours and cus else None
                if ratio:
                    geo[run].append(ratio)
                row += [f"{fmt(ours)} ({var})", fmt(cus), fmt(ratio, "{:.2f}")]
            print("| " + " | ".join(row) + " |")
        print()
        for run, title in RUNS:
            g = geo[run]
            if g:
                prod = 1.0
                for x in g:
                    prod *= x
                print(f"- {title}: geometric mean cuSPARSE / it {prod ** (1 / len(g)):.3f} over "
                      f"{len(g)} points, lowest {min(g):.3f}, under 1.0: {sum(x < 1 for x in g)}")


if __name__ == "__main__":
    main()
