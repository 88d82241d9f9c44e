#!/usr/bin/env python3
"""table.py: this record's tables: per point of each grid (warp1-TAG.csv against warp0-TAG.csv in a call's folder), the cooperative plan with the register kernel forced on (HINESBATCH_COOP_WARP=1; or SIDE-TAG.csv, e.g. rule-TAG.csv: the library's rule) and off (=0), each timed in its own bench call beside cuSPARSE's two routines. Usage: table.py FOLDER [SIDE]."""
import csv
import glob
import math
import os
import sys


def load(path):
    """{(systems, rows): {'ours': ms, 'variant': strategy, 'cus': best cuSPARSE ms, 'frac': of copy}}"""
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            k = (int(r["systems"]), int(r["rows_max"]))
            e = out.setdefault(k, {})
            ms = float(r["time_ms_median"])
            if r["backend"].startswith("cusparse"):
                e["cus"] = min(ms, e.get("cus", math.inf))
            else:
                e["ours"], e["frac"] = ms, float(r["fraction_of_copy"] or "nan")
    return out


def main(folder, side="warp1"):
    for on in sorted(glob.glob(os.path.join(folder, f"{side}-*.csv"))):
        tag = os.path.basename(on)[len(side) + 1:-len(".csv")]
        off = os.path.join(folder, f"warp0-{tag}.csv")
        if not os.path.exists(off):
            print(f"{tag}: missing {off}")
            continue
        a, b = load(on), load(off)
        print(f"\n### {tag}\n")
        print(f"| systems x rows | {side} ms | of copy | cuSPARSE / {side} | off ms | of copy | cuSPARSE / off | off / {side} |")
        print("|---|---|---|---|---|---|---|---|")
        ga, gb, n = 0.0, 0.0, 0
        for k in sorted(set(a) & set(b)):
            x, y = a[k], b[k]
            if "ours" not in x or "ours" not in y or "cus" not in x or "cus" not in y:
                continue
            ra, rb = x["cus"] / x["ours"], y["cus"] / y["ours"]
            ga, gb, n = ga + math.log(ra), gb + math.log(rb), n + 1
            print(f"| {k[0]} x {k[1]} | {x['ours']:.4g} | {x['frac']:.3f} | {ra:.2f} | {y['ours']:.4g} | {y['frac']:.3f} | {rb:.2f} | {y['ours'] / x['ours']:.2f} |")
        if n:
            print(f"\ngeometric mean of cuSPARSE / ours: {side} {math.exp(ga / n):.2f}, off {math.exp(gb / n):.2f} ({n} points)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".", sys.argv[2] if len(sys.argv) > 2 else "warp1")
