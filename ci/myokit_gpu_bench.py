#!/usr/bin/env python3
"""myokit_gpu_bench.py: Myokit's own OpenCL simulation (SimulationOpenCL) of Luo-Rudy 1991 from its package, as ci/cardiac-gpu.sh runs hinesbatch: N uncoupled cells and a batch of fibers, float and double; a markdown table of cell-steps per second."""
import argparse
import os
import time

import myokit

DATA = os.path.join(os.path.dirname(myokit.__file__), "tests", "data")


def run(ncells, conductance, dt, ms, precision, paced):
    m = myokit.load_model(os.path.join(DATA, "lr-1991.mmt"))
    p = myokit.pacing.blocktrain(period=1000, duration=0.5, offset=10)
    s = myokit.SimulationOpenCL(m, p, ncells=ncells, precision=precision)
    s.set_step_size(dt)
    if isinstance(ncells, tuple):
        s.set_conductance(*conductance)
    else:
        s.set_conductance(conductance)
    s.set_paced_cells(*paced)
    s.run(10 * dt, log=myokit.LOG_NONE)  # compiles the kernel outside the timing
    t0 = time.time()
    s.run(ms, log=myokit.LOG_NONE)
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cells", type=int, default=1000000)
    ap.add_argument("--fibers", type=int, default=1024)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--dt", type=float, default=0.01)
    ap.add_argument("--ms", type=float, default=100)
    ap.add_argument("--fiber-ms", type=float, default=50)
    a = ap.parse_args()
    print("| workload | Myokit | precision | cells | steps | time (s) | cell-steps/s |")
    print("|---|---|---|---|---|---|---|")
    side = int(round(a.cells ** 0.5))
    for prec, name in ((myokit.SINGLE_PRECISION, "float"), (myokit.DOUBLE_PRECISION, "double")):
        # 0-D: a side x side grid without coupling, every cell paced.
        n = side * side
        steps = int(round(a.ms / a.dt))
        secs = run((side, side), (0.0, 0.0), a.dt, a.ms, prec, (side, side))
        print("| 0-D (%dx%d grid, g 0) | SimulationOpenCL | %s | %d | %d | %.3f | %.4g |" %
              (side, side, name, n, steps, secs, n * steps / secs))
        # Fibers: nodes x fibers grid coupled along x only (sigma 1.2 mS/cm, chi 1400 /cm,
        # dx 0.01 cm: 8.57 mS/cm2 between neighbours), the first 5 nodes paced.
        n = a.fibers * a.nodes
        steps = int(round(a.fiber_ms / a.dt))
        secs = run((a.nodes, a.fibers), (1.2 / (1400 * 1e-4), 0.0), a.dt, a.fiber_ms, prec,
                   (5, a.fibers))
        print("| fibers %dx%d | SimulationOpenCL | %s | %d | %d | %.3f | %.4g |" %
              (a.fibers, a.nodes, name, n, steps, secs, n * steps / secs))


if __name__ == "__main__":
    main()
