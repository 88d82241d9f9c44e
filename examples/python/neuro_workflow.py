#!/usr/bin/env python3
"""neuro_workflow.py: a neuroscientist's workflow: load a shipped neuron (SWC), discretise it, simulate a few hundred copies with graded current clamps, and plot voltages and spikes to a PNG.

Usage: python examples/python/neuro_workflow.py [--cells N] [--tstop MS] [--swc FILE]
                                                [--backend NAME] [--out FILE.png]
"""
import argparse
import os

import numpy as np

import hinesbatch as hb

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SWC = os.path.join(HERE, "..", "..", "data", "morphologies", "nrn__c91662.swc")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", type=int, default=300)
    ap.add_argument("--tstop", type=float, default=60.0, help="ms")
    ap.add_argument("--swc", default=DEFAULT_SWC)
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--out", default="neuro_workflow.png")
    args = ap.parse_args()

    morph = hb.load_swc(args.swc)
    info = morph.info()
    print(f"{os.path.basename(args.swc)}: {info['samples']} samples, "
          f"{info['total_length']:.0f} um of neurites, soma {info['soma']}")
    # NEURON-style sections with the d_lambda rule (nseg=0).
    cell = morph.discretise("section", nseg=0, d_lambda=0.1)
    st = cell.stats()
    print(f"{cell.n} compartments, {st['branches']} branches, depth {st['levels']} levels")

    # The same neuron a few hundred times: a mono-morphology batch sharing
    # one tree. Each cell gets its own clamp amplitude (an f-I curve).
    sim = hb.Simulation(cell, args.cells, backend=args.backend, dt=0.025)
    amps = np.linspace(0.0, 2.0, args.cells)  # nA
    for c, amp in enumerate(amps):
        sim.add_iclamp(c, amp=float(amp), onset=10.0, dur=args.tstop - 20.0)
    show = sorted(set(np.linspace(0, args.cells - 1, 5).astype(int).tolist()))
    sim.record(show)
    print(sim.describe())
    sim.run(args.tstop)
    counts = sim.spike_counts()
    print(f"t = {sim.t:.1f} ms in {sim.timing()['total_ms']:.0f} ms of wall time; "
          f"spikes per cell from {counts.min()} to {counts.max()}, "
          f"{int((counts > 0).sum())} of {args.cells} cells fired")
    fig = sim.plot(args.out, title=f"{args.cells} copies of {os.path.basename(args.swc)}")
    ax = fig.axes[0]
    for line, c in zip(ax.get_lines(), show):
        line.set_label(f"cell {c}: {amps[c]:.2f} nA")
    ax.legend(fontsize=7, loc="upper right")
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    # A stronger clamp never fires less (graded input, same cell).
    ok = counts[0] == 0 and counts[-1] > 0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
