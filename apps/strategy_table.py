#!/usr/bin/env python3
"""strategy_table.py: Markdown tables of the strategy measurements (hinesbatch bench CSV) with where AUTO lands.

Usage: strategy_table.py CSV [MORPH1,MORPH2,...] [--mono MORPH,...] [--backends B1,B2]
                         [--systems N1,N2]
CSV: ci/gpu-strategies.sh's strategies.csv, the bench CSV with a first column
`morphology`; or a plain bench CSV holding, per morphology in the order given
by MORPH1,..., the same number of rows (the older records). For each point the
forced strategies per-system, branch-level, fine-tree and cell-group are compared; AUTO's
column is the time of the strategy that api/core/auto.c picks now, taken from
the same run (AUTO runs the same code as the forced strategy); the run's own
auto row is shown too. Batches of one tree are those not named mix:* (or the
--mono list). --backends and --systems keep only those points.
"""
import csv
import sys

FINE_BELOW, PER_SYSTEM_FROM, BRANCHES_FROM_ROWS = 4096, 131072, 64  # HB_AUTO_* in api/core/hb_plan.h
FORCED = ("per-system", "branch-level", "fine-tree", "cell-group")


def auto_rule(backend, nsys, max_rows, mono, cell_ran=True):
    """cell_ran: the run's forced cell-group row ran cell-group (its cells fit
    local memory), as AUTO then picks it where it would pick the fine tree."""
    if backend not in ("cuda", "opencl"):
        return "per-system"
    if mono and max_rows < BRANCHES_FROM_ROWS:
        return "per-system"
    if nsys < FINE_BELOW:
        return "cell-group" if cell_ran else "fine-tree"
    if nsys >= PER_SYSTEM_FROM:
        return "per-system"
    return "branch-level"


def option(args, name):
    if name in args:
        i = args.index(name)
        value = args[i + 1]
        del args[i:i + 2]
        return value
    return None


def main():
    args = sys.argv[1:]
    mono_list = option(args, "--mono")
    backends = option(args, "--backends")
    systems = option(args, "--systems")
    rows = list(csv.DictReader(open(args[0])))
    if rows and "morphology" not in rows[0]:
        morphs = args[1].split(",")
        per_morph = len(rows) // len(morphs)
        for i, r in enumerate(rows):
            r["morphology"] = morphs[min(i // per_morph, len(morphs) - 1)]
    order = list(dict.fromkeys(r["morphology"] for r in rows))
    points = {}
    for r in rows:
        if backends and r["backend"] not in backends.split(","):
            continue
        if systems and r["systems"] not in systems.split(","):
            continue
        key = (r["morphology"], r["backend"], int(r["systems"]))
        points.setdefault(key, {})[r["strategy"]] = (float(r["time_ms_median"]), r)
    worst, missing = [], []
    print("| backend | cells | morphology | rows/cell | per-system | branch-level | fine-tree |"
          " cell-group | best | AUTO picks | AUTO / best | measured auto row |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (name, backend, nsys), t in sorted(points.items(),
                                           key=lambda kv: (order.index(kv[0][0]), kv[0][1],
                                                           kv[0][2])):
        forced = {s: t[s][0] for s in FORCED if s in t}
        any_row = next(iter(t.values()))[1]
        rmin, rmax = int(any_row["rows_min"]), int(any_row["rows_max"])
        mono = name in mono_list.split(",") if mono_list else not name.startswith("mix:")
        pick = auto_rule(backend, nsys, rmax, mono, "cell-group" in forced)
        measured = [f"{s} {v[0]:.3f}" for s, v in t.items() if s.startswith("auto")]
        # cell-group is optional: host backends lack it, and records before it.
        if len([s for s in forced if s != "cell-group"]) < len(FORCED) - 1:
            missing.append(f"{backend}, {nsys} x {name}: only {', '.join(forced) or 'auto'}")
            continue
        best = min(forced, key=forced.get)
        ratio = forced[pick] / forced[best]
        worst.append((ratio, backend, nsys, name))
        print(f"| {backend} | {nsys} | {name} | {rmin if rmin == rmax else f'{rmin}-{rmax}'} | "
              + " | ".join(f"{forced[s]:.3f}" if s in forced else "-" for s in FORCED)
              + f" | {best} | {pick} | {ratio:.2f} | {', '.join(measured)} |")
    off = [w for w in worst if w[0] > 1.10]
    print(f"\nAUTO within 10% of the best at {len(worst) - len(off)} of {len(worst)} points.")
    for ratio, backend, nsys, name in sorted(off, reverse=True):
        print(f"- {backend}, {nsys} x {name}: AUTO {ratio:.2f}x the best")
    for m in missing:
        print(f"- not complete (time budget): {m}")


if __name__ == "__main__":
    main()
