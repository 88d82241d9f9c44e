#!/usr/bin/env python3
"""plot_traces.py: plots the soma voltage traces written by `hinesbatch simulate --csv` into a PNG.

usage: plot_traces.py TRACES.csv OUT.png [--spikes SPIKES.csv] [--title TEXT]
"""
import argparse
import csv
import sys


def read_traces(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        sys.exit(f"plot_traces: {path} has no samples")
    header, data = rows[0], rows[1:]
    cols = list(zip(*[[float(x) for x in r] for r in data]))
    return header, cols


def read_spikes(path):
    spikes = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            spikes.setdefault(int(row["cell"]), []).append(float(row["spike_ms"]))
    return spikes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--spikes")
    ap.add_argument("--title", default="hinesbatch simulate: soma voltage")
    a = ap.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_traces: matplotlib is not installed (pip install matplotlib)")
    header, cols = read_traces(a.csv)
    spikes = read_spikes(a.spikes) if a.spikes else {}
    t = cols[0]
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=110)
    for name, v in zip(header[1:], cols[1:]):
        label = name.replace("_soma_mV", "")
        (line,) = ax.plot(t, v, lw=1.0, label=label)
        cell = int(label[4:]) if label.startswith("cell") and label[4:].isdigit() else None
        for ts in spikes.get(cell, []):
            ax.axvline(ts, color=line.get_color(), lw=0.5, ls=":", alpha=0.6)
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("soma voltage (mV)")
    ax.set_title(a.title)
    ax.grid(alpha=0.3)
    if len(header) > 2:
        ax.legend(loc="upper right", fontsize=8, ncol=min(4, len(header) - 1))
    fig.tight_layout()
    fig.savefig(a.png)
    print(f"plot_traces: wrote {a.png}")


if __name__ == "__main__":
    main()
