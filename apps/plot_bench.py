#!/usr/bin/env python3
"""plot_bench.py: turns the CSV of `hinesbatch bench` into PNG figures.

usage: plot_bench.py BENCH.csv [--out DIR] [--title TEXT] [--headline FILE.md]

Writes (only those the CSV has data for):
  speedup_thomas.png    speedup over serial vs systems, one panel per system size
  speedup_hines.png     the same for Hines batches (one panel per morphology / mix)
  fraction_of_copy.png  compulsory bandwidth / device-copy bandwidth vs systems
  cusparse_ratio.png    cuSPARSE time / hinesbatch CUDA time (> 1: hinesbatch faster)
and, with --headline, a Markdown summary of the headline ratios (speedups over
serial, best bandwidth and fraction of copy per backend, the 256,000 x 512
reference point, cuSPARSE ratios). Needs matplotlib only (no pandas).
"""
import argparse
import collections
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FormatStrFormatter, NullFormatter  # noqa: E402

HB_BACKENDS = ("serial", "openmp", "opencl", "cuda")
COLORS = {"serial": "black", "openmp": "tab:green", "opencl": "tab:blue", "cuda": "tab:red",
          "cusparse-interleaved": "tab:purple", "cusparse-strided": "tab:orange"}
MARKERS = "os^vD<>pXh*"


def num(v):
    try:
        x = float(v)
        return x if math.isfinite(x) else None
    except (TypeError, ValueError):
        return None


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("systems", "rows_min", "rows_max", "rows_total", "reps"):
            r[k] = int(r[k])
    return rows


def devices_title(rows, extra):
    """Device names for the title: every backend's device once, GPU first."""
    seen = collections.OrderedDict()
    for r in sorted(rows, key=lambda r: r["backend"] not in ("cuda", "opencl")):
        if r["backend"] in HB_BACKENDS and r["backend"] != "serial":
            seen.setdefault(r["backend"], r["device"])
    names = []
    for b, d in seen.items():
        d = d.replace(b + " on ", "", 1)
        names.append(f"{b}: {d[:60]}")
    text = "; ".join(names) if names else "serial only"
    return (extra + "\n" if extra else "") + text


def panel_key(r):
    """What stays fixed within a panel: kind and the system sizes."""
    if r["rows_min"] == r["rows_max"]:
        return (r["kind"], r["rows_min"], r["rows_max"], f"{r['rows_max']} rows per system")
    return (r["kind"], r["rows_min"], r["rows_max"],
            f"{r['rows_min']}..{r['rows_max']} rows per system (variable)")


def series_label(r):
    # AUTO's choice of strategy and layout changes with the batch size: one
    # line per backend, or its points would scatter over several series.
    if r["strategy"].startswith("auto:"):
        return f"{r['backend']} AUTO {r['precision']}"
    label = f"{r['backend']} {r['layout']}"
    if r["kind"] == "hines" and r["strategy"] not in ("per-system",):
        label += f" {r['strategy']}"
    return label + f" {r['precision']}"


def grid_of(n):
    cols = min(4, n)
    return (n + cols - 1) // cols, cols


def series_plot(rows, value, ylabel, title, path, yscale="log", hline=None):
    panels = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        y = value(r)
        if y is None:
            continue
        panels[panel_key(r)][series_label(r)].append((r["systems"], y, r["backend"]))
    if not panels:
        return False
    keys = sorted(panels, key=lambda k: (k[0], k[1] != k[2], k[2], k[1]))
    nr, nc = grid_of(len(keys))
    fig, axes = plt.subplots(nr, nc, figsize=(4.6 * nc, 3.6 * nr + 0.9), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        ys_all = [p[1] for pts in panels[key].values() for p in pts if p[1] > 0]
        scale = yscale
        if yscale == "log" and ys_all and max(ys_all) / min(ys_all) < 20:
            scale = "linear"  # a narrow range reads better with plain ticks
        for i, (label, pts) in enumerate(sorted(panels[key].items())):
            pts.sort()
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            ls = "--" if "float" in label else "-"
            ax.plot(xs, ys, ls, marker=MARKERS[i % len(MARKERS)], ms=4, lw=1.2,
                    color=COLORS.get(pts[0][2]), label=label, alpha=0.85)
        if hline is not None:
            ax.axhline(hline, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_yscale(scale)
        ax.xaxis.set_minor_formatter(NullFormatter())
        if scale == "log":
            ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
            ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_title(f"{key[0]}, {key[3]}", fontsize=9)
        ax.set_xlabel("systems in the batch")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=5.5, ncol=1 if len(panels[key]) < 10 else 2)
    for ax in list(axes.flat)[len(keys):]:
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def cusparse_ratios(rows):
    """cuSPARSE median time / hinesbatch CUDA median time on the same point."""
    cuda = {}
    for r in rows:
        if r["backend"] == "cuda" and r["kind"] == "thomas" and r["rows_min"] == r["rows_max"]:
            cuda[(r["precision"], r["systems"], r["rows_max"])] = (num(r["time_ms_median"]),
                                                                  r["layout"])
    out = []
    for r in rows:
        if not r["backend"].startswith("cusparse"):
            continue
        t_hb, lay = cuda.get((r["precision"], r["systems"], r["rows_max"]), (None, ""))
        t_cs = num(r["time_ms_median"])
        if t_hb and t_cs:
            q = dict(r)
            q["ratio"] = t_cs / t_hb
            q["layout"] = "/ cuda " + lay
            out.append(q)
    return out


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2])


def headline(rows, title):
    """Markdown: the numbers a reader asks for first, all taken from the CSV."""
    out = [f"# Headline ratios\n\n{title}\n"]
    out.append("| backend | kind | points | speedup over serial: median | max (at) | "
               "best GB/s (at) | best fraction of copy |")
    out.append("|---|---|---|---|---|---|---|")
    for b in sorted({r["backend"] for r in rows} - {"serial"}):
        for kind in ("thomas", "hines"):
            sel = [r for r in rows if r["backend"] == b and r["kind"] == kind]
            if not sel:
                continue
            sp = [(num(r["speedup_vs_serial"]), r) for r in sel if num(r["speedup_vs_serial"])]
            bw = [(num(r["gbps_compulsory"]), r) for r in sel if num(r["gbps_compulsory"])]
            fr = [num(r["fraction_of_copy"]) for r in sel if num(r["fraction_of_copy"])]
            def at(r):
                rows = (f"{r['rows_max']}" if r["rows_min"] == r["rows_max"]
                        else f"{r['rows_min']}..{r['rows_max']}")
                return f"{r['systems']} x {rows} {r['precision']} {r['layout']} {r['strategy']}"
            msp = max(sp, key=lambda t: t[0]) if sp else None
            mbw = max(bw, key=lambda t: t[0]) if bw else None
            cells = [b, kind, str(len(sel)),
                     f"{median([t[0] for t in sp]):.3g}" if sp else "-",
                     f"{msp[0]:.3g} ({at(msp[1])})" if msp else "-",
                     f"{mbw[0]:.4g} ({at(mbw[1])})" if mbw else "-",
                     f"{max(fr):.3g}" if fr else "-"]
            out.append("| " + " | ".join(cells) + " |")
    ref = [r for r in rows if r["kind"] == "thomas" and r["systems"] == 256000
           and r["rows_min"] == r["rows_max"] == 512]
    if ref:
        out.append("\n## Reference point: thomas, 256,000 systems x 512 rows\n")
        out.append("| backend | precision | layout | median ms | GB/s (5 values/row) | copy GB/s | "
                   "fraction of copy | speedup over serial |")
        out.append("|---|---|---|---|---|---|---|---|")
        for r in ref:
            cells = [r["backend"], r["precision"], r["layout"], r["time_ms_median"],
                     r["gbps_compulsory"], r["copy_gbps"], r["fraction_of_copy"],
                     r["speedup_vs_serial"] or "(serial not run)"]
            out.append("| " + " | ".join(cells) + " |")
    ratios = cusparse_ratios(rows)
    if ratios:
        out.append("\n## cuSPARSE time / hinesbatch CUDA time (> 1: hinesbatch faster)\n")
        out.append("hinesbatch: solve + synchronize on the host clock (one launch and one wait "
                   "included); cuSPARSE: CUDA events over back-to-back calls (apps/bench_cuda.cu, "
                   "which logs its own event-timed hinesbatch time too): small batches favour "
                   "cuSPARSE here.\n")
        out.append("| routine | precision | points | min | median | max | at fewest systems | "
                   "at most systems |")
        out.append("|---|---|---|---|---|---|---|---|")
        for b in sorted({q["backend"] for q in ratios}):
            for p in ("double", "float"):
                sel = sorted((q for q in ratios if q["backend"] == b and q["precision"] == p),
                             key=lambda q: (q["systems"], q["rows_max"]))
                if not sel:
                    continue
                v = [q["ratio"] for q in sel]
                lo, hi = sel[0], sel[-1]
                cells = [b, p, str(len(v)), f"{min(v):.3g}", f"{median(v):.3g}", f"{max(v):.3g}",
                         f"{lo['ratio']:.3g} ({lo['systems']} x {lo['rows_max']})",
                         f"{hi['ratio']:.3g} ({hi['systems']} x {hi['rows_max']})"]
                out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--out", default=".")
    ap.add_argument("--title", default="", help="first title line (e.g. machine and date)")
    ap.add_argument("--headline", help="also write the headline ratios (Markdown) here")
    a = ap.parse_args(argv)
    rows = load(a.csv)
    os.makedirs(a.out, exist_ok=True)
    dev = devices_title(rows, a.title)
    written = []
    hb = [r for r in rows if r["backend"] in HB_BACKENDS]
    for kind in ("thomas", "hines"):
        sel = [r for r in hb if r["kind"] == kind and r["backend"] != "serial"]
        path = os.path.join(a.out, f"speedup_{kind}.png")
        if series_plot(sel, lambda r: num(r["speedup_vs_serial"]),
                       "speedup over serial (x)",
                       f"{kind}: speedup over the serial backend\n" + dev,
                       path, hline=1.0):
            written.append(path)
    path = os.path.join(a.out, "fraction_of_copy.png")
    sel = [r for r in rows if r["backend"] != "serial"]
    if series_plot(sel, lambda r: num(r["fraction_of_copy"]),
                   "compulsory GB/s / copy GB/s",
                   "fraction of device-copy bandwidth "
                   "(5 values per row vs a copy of the same bytes)\n"
                   + dev, path, yscale="linear", hline=1.0):
        written.append(path)
    ratios = cusparse_ratios(rows)
    path = os.path.join(a.out, "cusparse_ratio.png")
    if ratios and series_plot(ratios, lambda r: r["ratio"],
                              "cuSPARSE time / hinesbatch time (x)",
                              "cuSPARSE vs hinesbatch CUDA, same shapes (> 1: hinesbatch faster); "
                              "hinesbatch: solve + synchronize, host clock; cuSPARSE: CUDA events, "
                              "back to back (apps/bench_cuda.cu), "
                              "so small batches favour cuSPARSE\n"
                              + dev,
                              path, hline=1.0):
        written.append(path)
    if a.headline:
        with open(a.headline, "w") as f:
            f.write(headline(rows, dev))
        written.append(a.headline)
    for p in written:
        print(p)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
