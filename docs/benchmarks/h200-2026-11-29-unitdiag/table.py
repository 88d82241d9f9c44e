#!/usr/bin/env python3
"""table.py: this record's tables: per point of the seeds' Thomas grid, AUTO before (four local arrays) and now (rows over their diagonal, three), each against the faster cuSPARSE routine timed in its own bench call; geometric means per half and over the whole grid."""
import csv
import math
import re
import sys
from pathlib import Path

LOG = re.compile(r"bench: cuda +thomas \S+ (\w+) (\d+) x (\d+) rows.*\((.*)\)\s*$")


def load(path):
    """{(systems, rows): [ours ms, fastest cuSPARSE ms, variant, fraction of copy]}."""
    pts = {}
    if not path.exists():
        return pts
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (int(r["systems"]), int(r["rows_max"]))
            t = float(r["time_ms_median"])
            p = pts.setdefault(key, [None, None, "", None])
            if r["backend"].startswith("cusparse"):
                p[1] = t if p[1] is None else min(p[1], t)
            elif r["backend"] == "cuda":
                p[0], p[3] = t, float(r["fraction_of_copy"] or "nan")
    log = path.with_suffix(".log")
    if log.exists():
        for line in log.read_text().splitlines():
            m = LOG.match(line)
            if m:
                key = (int(m.group(2)), int(m.group(3)))
                if key in pts:
                    pts[key][2] = m.group(4).split(",")[0]
    return pts


def geo(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt(x, spec="{:.3g}"):
    return "-" if x is None else spec.format(x)


def main():
    folders = [Path(a) for a in sys.argv[1:]]
    for prec in ("double", "float"):
        whole = {"old": [], "new": []}
        for half in ("short", "long"):
            data = {}
            for ver in ("old", "new"):
                data[ver] = {}
                for f in folders:
                    data[ver].update(load(f / f"{ver}-{prec}-{half}.csv"))
            keys = sorted(set(data["old"]) | set(data["new"]))
            if not keys:
                continue
            print(f"\n### {prec}, {half} half\n")
            print("| systems x rows | before ms (variant) | cuSPARSE / before | now ms (variant) "
                  "| cuSPARSE / now | now / before | now, of copy |")
            print("|---|---|---|---|---|---|---|")
            ratios = {"old": [], "new": []}
            for k in keys:
                row = [f"{k[0]} x {k[1]}"]
                t = {}
                for ver in ("old", "new"):
                    ours, cus, var, frac = data[ver].get(k, [None, None, "", None])
                    r = cus / ours if ours and cus else None
                    ratios[ver].append(r)
                    t[ver] = (ours, frac)
                    row += [f"{fmt(ours)} ({var or '-'})", fmt(r, "{:.2f}")]
                sp = t["old"][0] / t["new"][0] if t["old"][0] and t["new"][0] else None
                row += [fmt(sp, "{:.2f}x"), fmt(t["new"][1], "{:.3f}")]
                print("| " + " | ".join(row) + " |")
            for ver in ("old", "new"):
                whole[ver] += ratios[ver]
                under = sum(1 for r in ratios[ver] if r is not None and r < 1.0)
                print(f"\n{ver}: geometric mean of cuSPARSE / ours {fmt(geo(ratios[ver]), '{:.2f}')}"
                      f", {under} points under 1.0, {sum(r is not None for r in ratios[ver])} points")
        for ver in ("old", "new"):
            if whole[ver]:
                print(f"\n**{prec}, whole grid, {ver}: geometric mean "
                      f"{fmt(geo(whole[ver]), '{:.2f}')} over "
                      f"{sum(r is not None for r in whole[ver])} points**")


if __name__ == "__main__":
    main()
