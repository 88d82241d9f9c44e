#!/usr/bin/env python3
"""plot_cardiac.py: figures of `hinesbatch cardiac` outputs: action potentials (--csv: t_ms, then cell:state columns) and activation time along a fiber (--activation: node, x_cm, t_ms)."""
import argparse
import csv
import sys


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--traces", help="the --csv file of hinesbatch cardiac")
    ap.add_argument("--activation", help="the --activation file of hinesbatch cardiac")
    ap.add_argument("-o", "--out", required=True, help="the figure (.png, .pdf, .svg)")
    a = ap.parse_args()
    if not a.traces and not a.activation:
        ap.error("give --traces, --activation or both")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_cardiac.py: needs matplotlib (Debian: python3-matplotlib)", file=sys.stderr)
        return 1
    panels = [p for p in (a.traces, a.activation) if p]
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4), squeeze=False)
    k = 0
    if a.traces:
        head, rows = read(a.traces)
        ax = axes[0][k]
        k += 1
        t = [r[0] for r in rows]
        for j, name in enumerate(head[1:], start=1):
            ax.plot(t, [r[j] for r in rows], lw=1, label="cell " + name)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("state (V in mV)")
        ax.set_title("action potentials")
        if len(head) <= 9:
            ax.legend(fontsize=8)
    if a.activation:
        head, rows = read(a.activation)
        ax = axes[0][k]
        ax.plot([r[1] for r in rows], [r[2] for r in rows], "o-", ms=3)
        ax.set_xlabel("position along the fiber (cm)")
        ax.set_ylabel("activation time (ms, -30 mV upward)")
        ax.set_title("activation along fiber 0")
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
