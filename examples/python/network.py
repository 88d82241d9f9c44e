#!/usr/bin/env python3
"""network.py: a network of real neurons: copies of a shipped CA1 pyramidal cell, each with an excitatory synapse (Exp2Syn) that random cells of the network and a Poisson background drive, connected with random delays; the spikes as a raster in a PNG.

Usage: python examples/python/network.py [--cells N] [--fanin K] [--tstop MS] [--parts P]
                                         [--seed S] [--backend NAME] [--out FILE.png]
"""
import argparse
import os

import numpy as np

import hinesbatch as hb

HERE = os.path.dirname(os.path.abspath(__file__))
SWC = os.path.join(HERE, "..", "..", "data", "morphologies", "nrn__c91662.swc")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", type=int, default=200)
    ap.add_argument("--fanin", type=int, default=10, help="connections into each cell")
    ap.add_argument("--tstop", type=float, default=100.0, help="ms")
    ap.add_argument("--parts", type=int, default=1, help="simulations the cells are split into")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--out", default="network.png")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)

    cell = hb.load_swc(SWC).discretise("section", nseg=0)
    net = hb.Network()
    # The cells split into parts (each its own simulation: on a machine
    # with several GPUs, one per device); gids 0 .. cells - 1 in order.
    bounds = np.linspace(0, args.cells, args.parts + 1).astype(int)
    syn = []  # (simulation, point id) of each cell's synapse, by gid
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        sim = hb.Simulation(cell, int(hi - lo), backend=args.backend)
        for c in range(int(hi - lo)):
            p = sim.add_point("Exp2Syn", c, tau1=0.5, tau2=3.0, e=0.0)
            # Background: Poisson input of 0.012 uS at 40 Hz to every synapse.
            sim.add_spike_train(p, weight=0.012, rate=40.0, stop=args.tstop,
                                seed=args.seed * 100003 + lo + c)
            syn.append((sim, p))
        net.add(sim)
    # Recurrent excitation: each cell hears `fanin` others, 1-5 ms away.
    for dst in range(args.cells):
        for src in rng.choice(args.cells - 1, size=min(args.fanin, args.cells - 1),
                              replace=False):
            src = int(src) + (src >= dst)  # never itself
            sim, p = syn[dst]
            net.connect(src, sim, p, weight=0.004, delay=float(rng.uniform(1.0, 5.0)))
    print(syn[0][0].describe())
    net.run(args.tstop)
    gids, times = net.spikes()
    ms, epochs = net.epoch
    active = np.unique(gids).size
    print(f"{args.cells} cells in {args.parts} part(s), {net.connections} connections: "
          f"{gids.size} spikes from {active} cells in {args.tstop:g} ms "
          f"({gids.size / args.cells / args.tstop * 1000:.1f} Hz per cell); "
          f"{epochs} epochs of {ms:g} ms")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plot")
        return 0
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.plot(times, gids, "|", markersize=3, color="k")
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("cell (gid)")
    ax.set_xlim(0, args.tstop)
    ax.set_title(f"{args.cells} CA1 cells, fan-in {args.fanin}, Poisson drive")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"raster: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
