#!/usr/bin/env python3
"""strategy_table.py: Markdown tables of the strategy measurements (hinesbatch bench CSV) with where AUTO lands.

Usage: strategy_table.py CSV MORPH1,MORPH2,... [--mono MORPH,...]
The CSV holds, per morphology (in the order given), per number of systems, the
strategies per-system, branch-level, fine-tree and auto for each backend (the
order `hinesbatch bench --strategy per-system,branch-level,fine-tree,auto`
writes). AUTO's column is the time of the strategy that api/strategy.c picks
now, taken from the same run (AUTO runs the same code as the forced strategy);
the measured auto row is shown too.
"""
import csv
import sys

FINE_BELOW, PER_SYSTEM_FROM, BRANCHES_FROM_ROWS = 4096, 131072, 64  # api/hb_internal.h


def auto_rule(backend, nsys, max_rows, mono):
    if backend not in ("cuda", "opencl"):
        return "per-system"
    if mono and max_rows < BRANCHES_FROM_ROWS:
        return "per-system"
    if nsys < FINE_BELOW:
        return "fine-tree"
    if nsys >= PER_SYSTEM_FROM:
        return "per-system"
    return "branch-level"


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    morphs = sys.argv[2].split(",")
    mono = set(sys.argv[4].split(",")) if len(sys.argv) > 4 and sys.argv[3] == "--mono" else set()
    per_morph = len(rows) // len(morphs)
    worst = []
    print("| backend | cells | morphology | rows/cell | per-system | branch-level | fine-tree |"
          " best | AUTO picks | AUTO / best | measured auto row |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for m, name in enumerate(morphs):
        block = rows[m * per_morph:(m + 1) * per_morph]
        points = {}
        for r in block:
            key = (r["backend"], int(r["systems"]))
            points.setdefault(key, {})[r["strategy"]] = (float(r["time_ms_median"]), r)
        for (backend, nsys), t in sorted(points.items(), key=lambda kv: (kv[0][0], kv[0][1])):
            forced = {s: t[s][0] for s in ("per-system", "branch-level", "fine-tree") if s in t}
            best = min(forced, key=forced.get)
            any_row = next(iter(t.values()))[1]
            rmin, rmax = int(any_row["rows_min"]), int(any_row["rows_max"])
            pick = auto_rule(backend, nsys, rmax, name in mono)
            ratio = forced[pick] / forced[best]
            worst.append((ratio, backend, nsys, name))
            measured = [f"{s} {v[0]:.3f}" for s, v in t.items() if s.startswith("auto")]
            print(f"| {backend} | {nsys} | {name} | {rmin if rmin == rmax else f'{rmin}-{rmax}'} | "
                  + " | ".join(f"{forced.get(s, float('nan')):.3f}"
                               for s in ("per-system", "branch-level", "fine-tree"))
                  + f" | {best} | {pick} | {ratio:.2f} | {', '.join(measured)} |")
    off = [w for w in worst if w[0] > 1.10]
    print(f"\nAUTO within 10% of the best at {len(worst) - len(off)} of {len(worst)} points.")
    for ratio, backend, nsys, name in sorted(off, reverse=True):
        print(f"- {backend}, {nsys} x {name}: AUTO {ratio:.2f}x the best")


if __name__ == "__main__":
    main()
