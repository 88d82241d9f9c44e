#!/usr/bin/env python3
"""plot_traces.py: the figure of a `hinesbatch simulate` run: a spike raster of every cell and the recorded soma traces, with the stimulus.

usage: plot_traces.py [--spikes SPIKES.csv] [--cells N] [--stim ONSET,DUR] [--amps FIRST,LAST]
                      [--threshold MV] [--tstop MS] [--title TEXT] [--] TRACES.csv OUT.png

TRACES.csv: t_ms and one column cellN_soma_mV per recorded cell (simulate --csv;
its other columns, a model file's probes, are not drawn);
SPIKES.csv: cell,spike_ms (simulate --spikes). --amps: the stimulus amplitude
(nA) of cell 0 and of cell N-1, evenly spaced in between (simulate's
--amp-spread). `hinesbatch simulate --plot` passes all of them.
Exit status: 0 written; 3 matplotlib cannot be imported (the CLI names that
cause); 2 bad arguments; 1 any other failure.
"""
import argparse
import csv
import sys

EXIT_NO_MATPLOTLIB = 3  # apps/cli_spawn.h CLI_SCRIPT_NO_MATPLOTLIB
MAX_TRACES = 8  # more traces than this on one axis are a tangle


def pair(text):
    a, b = text.split(",")
    return float(a), float(b)


def read_traces(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        sys.exit(f"plot_traces: {path} has no samples")
    header, data = rows[0], rows[1:]
    cols = list(zip(*[[float(x) for x in r] for r in data]))
    cells, soma = [], []
    for name, col in zip(header[1:], cols[1:]):
        # Soma voltages only: a model file's probes (cellN_compK_WHAT) are
        # other quantities in other units.
        if not name.endswith("_soma_mV"):
            continue
        digits = name[4:].split("_")[0] if name.startswith("cell") else ""
        cells.append(int(digits) if digits.isdigit() else None)
        soma.append(col)
    return cols[0], list(zip(cells, soma))


def read_spikes(path):
    cells, times = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            cells.append(int(row["cell"]))
            times.append(float(row["spike_ms"]))
    return cells, times


def amplitude(args, ncells, cell):
    """The stimulus of one cell, nA (None without --amps)."""
    if args.amps is None or cell is None:
        return None
    first, last = args.amps
    return first if ncells <= 1 else first + (last - first) * cell / (ncells - 1)


def mv(x):
    """A number for a label, with a true minus sign as on the axes."""
    return f"{x:g}".replace("-", "\u2212")


def evenly(items, k):
    """k items spread evenly over the list, first and last included."""
    if len(items) <= k:
        return items
    return [items[round(i * (len(items) - 1) / (k - 1))] for i in range(k)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--spikes")
    ap.add_argument("--cells", type=int)
    ap.add_argument("--stim", type=pair, help="ONSET,DUR (ms)")
    ap.add_argument("--amps", type=pair, help="FIRST,LAST (nA)")
    ap.add_argument("--threshold", type=float)
    ap.add_argument("--tstop", type=float)
    ap.add_argument("--title", default="hinesbatch simulate")
    a = ap.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
        from matplotlib.colors import ListedColormap, Normalize
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator
    except ImportError as e:
        print(f"plot_traces: {sys.executable} cannot import matplotlib: {e}", file=sys.stderr)
        sys.exit(EXIT_NO_MATPLOTLIB)

    t, traces = read_traces(a.csv)
    spike_cells, spike_times = read_spikes(a.spikes) if a.spikes else ([], [])
    ncells = a.cells or max([c + 1 for c in spike_cells] + [c + 1 for c, _ in traces if c is not None] + [1])
    tstop = a.tstop if a.tstop else t[-1]

    # Colour is the stimulus where it differs between cells (the same colour
    # for a cell's spikes, its trace and its amplitude); otherwise traces get
    # distinct colours of a qualitative palette.
    cmap = ListedColormap(matplotlib.colormaps["viridis"](np.linspace(0, 0.9, 256)))  # no pale yellow
    lo, hi = (min(a.amps), max(a.amps)) if a.amps else (0.0, 0.0)
    graded = a.amps is not None and hi > lo and ncells > 1
    norm = Normalize(lo, hi) if graded else None

    def colour(cell, index):
        amp = amplitude(a, ncells, cell)
        if graded and amp is not None:
            return cmap(norm(amp))
        return matplotlib.colormaps["tab10"](index % 10)

    shown = evenly(traces, MAX_TRACES)
    fig = plt.figure(figsize=(10.5, 6.8), dpi=110)
    raster = a.spikes is not None
    gs = fig.add_gridspec(2 if raster else 1, 2, width_ratios=[1, 0.22],
                          height_ratios=[1.15, 1] if raster else [1],
                          hspace=0.12, wspace=0.04, left=0.075, right=0.975, top=0.86, bottom=0.09)
    ax_t = fig.add_subplot(gs[-1, 0])
    axes = [ax_t]
    if raster:
        ax_r = fig.add_subplot(gs[0, 0], sharex=ax_t)
        ax_a = fig.add_subplot(gs[0, 1], sharey=ax_r)
        axes.append(ax_r)
    stim_colour = "#e8a33d"
    if a.stim:
        for ax in axes:
            ax.axvspan(a.stim[0], a.stim[0] + a.stim[1], color=stim_colour, alpha=0.13, lw=0)

    if raster:
        # One tick per spike; its length about one cell's row, visible for big batches.
        row_pt = ax_r.get_position().height * fig.get_figheight() * 72 / ncells
        tick = max(4.0, min(9.0, 0.9 * row_pt))
        if spike_times:
            cells = np.asarray(spike_cells, dtype=float)
            style = {"c": a.amps[0] + (a.amps[1] - a.amps[0]) * cells / (ncells - 1), "cmap": cmap,
                     "norm": norm} if graded else {"color": "0.15"}
            ax_r.scatter(np.asarray(spike_times), cells, marker="|", s=tick * tick, linewidths=1.3,
                         rasterized=len(spike_times) > 5000, **style)
        else:
            ax_r.text(0.5, 0.5, "no spikes" + (f" (threshold {mv(a.threshold)} mV)" if a.threshold is not None else ""),
                      transform=ax_r.transAxes, ha="center", va="center", color="0.4")
        ax_r.set_ylim(-0.5, ncells - 0.5)
        ax_r.yaxis.set_major_locator(MaxNLocator(integer=True))  # cells are whole
        ax_r.set_ylabel("cell (index)")
        ax_r.tick_params(labelbottom=False)
        nspk = len(spike_times)
        firing = len(set(spike_cells))
        ax_r.set_title(f"spike raster: {nspk:,} spike{'s' * (nspk != 1)} in {firing:,} of "
                       f"{ncells:,} cell{'s' * (ncells != 1)}"
                       + (f" (soma crossing {mv(a.threshold)} mV)" if a.threshold is not None else ""),
                       fontsize=9.5, loc="left", color="0.25")
        # The stimulus of each cell, on the same rows: the side axis.
        if a.amps is not None:
            cells = np.arange(ncells)
            amps = np.array([amplitude(a, ncells, c) for c in cells])
            # Bars from 0: the amplitude is the bar's length (one polygon for big batches).
            if ncells <= 2000:
                ax_a.barh(cells, amps, height=1.0, lw=0,
                          color=cmap(norm(amps)) if graded else "0.75")
            else:
                ax_a.fill_betweenx(cells, 0, amps, color="0.75", lw=0)
            for i, (c, _) in enumerate(shown):  # the recorded cells, as in the legend
                if c is not None and c < ncells:
                    ax_a.plot([amplitude(a, ncells, c)], [c], marker="<", ms=7, mec="k", mew=0.6,
                              color=colour(c, i), ls="none", clip_on=False)
            pad = 0.1 * max(hi - min(lo, 0), max(hi, 0) - lo, 1e-3)
            ax_a.set_xlim(min(lo, 0) - (pad if lo < 0 else 0), max(hi, 0) + pad)
            ax_a.axvline(0, color="0.3", lw=0.8)
            ax_a.set_xlabel("stimulus (nA)")
            ax_a.xaxis.set_label_position("top")
            ax_a.tick_params(labelleft=False, labelbottom=False, labeltop=True, top=True, bottom=False)
            ax_a.grid(alpha=0.3)
        else:
            ax_a.axis("off")

    handles = []
    for i, (cell, v) in enumerate(shown):
        amp = amplitude(a, ncells, cell)
        label = f"cell {cell}" if cell is not None else "trace"
        if amp is not None:
            label += f", {mv(float(f'{amp:.3g}'))} nA"
        (line,) = ax_t.plot(t, v, lw=1.1, color=colour(cell, i), label=label)
        handles.append(line)
    if a.threshold is not None:
        ax_t.axhline(a.threshold, color="0.35", lw=0.8, ls="--")
        handles.append(Line2D([], [], color="0.35", lw=0.8, ls="--",
                              label=f"threshold {mv(a.threshold)} mV"))
    if a.stim:
        handles.append(Patch(color=stim_colour, alpha=0.3,
                             label=f"stimulus on\n{a.stim[0]:g}\u2013{a.stim[0] + a.stim[1]:g} ms"))
    if tstop > 0:
        ax_t.set_xlim(0, tstop)
    ax_t.set_xlabel("time (ms)")
    ax_t.set_ylabel("soma membrane potential (mV)")
    ax_t.grid(alpha=0.3)
    for ax in axes:
        ax.spines[["top", "right"]].set_visible(False)
    head = "recorded cells" if len(shown) == len(traces) else f"{len(shown)} of {len(traces)} recorded"
    ax_t.legend(handles=handles, title=head, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                borderaxespad=0, fontsize=8.5, title_fontsize=9, frameon=False)

    lines = a.title.split("\n", 1)
    fig.suptitle(lines[0], x=0.075, y=0.975, ha="left", fontsize=12.5, fontweight="bold")
    if len(lines) > 1:
        fig.text(0.075, 0.925, lines[1], ha="left", va="top", fontsize=9.5, color="0.3")
    fig.savefig(a.png)
    print(f"plot_traces: wrote {a.png}")


if __name__ == "__main__":
    main()
