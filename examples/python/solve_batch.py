#!/usr/bin/env python3
"""solve_batch.py: a numerical workflow: solve a batch of random tridiagonal systems with hinesbatch and check it against scipy.linalg.solve_banded.

Usage: python examples/python/solve_batch.py [--nsys N] [--n ROWS] [--dtype float64|float32]
                                             [--backend NAME] [--seed S]
"""
import argparse
import time

import numpy as np
from scipy.linalg import solve_banded

import hinesbatch as hb


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nsys", type=int, default=10000)
    ap.add_argument("--n", type=int, default=128)
    ap.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else np.random.SeedSequence().entropy % 2**32
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)

    # Diagonally dominant systems: a well-conditioned batch.
    shape = (args.nsys, args.n)
    a = rng.uniform(-1, 1, shape).astype(args.dtype)
    c = rng.uniform(-1, 1, shape).astype(args.dtype)
    b = (np.abs(a) + np.abs(c) + rng.uniform(0.5, 2, shape)).astype(args.dtype)
    d = rng.uniform(-1, 1, shape).astype(args.dtype)

    ctx = hb.Context(args.backend)
    print(f"hinesbatch {hb.__version__} on {ctx.describe()}")
    t0 = time.perf_counter()
    x = hb.solve_tridiagonal(a, b, c, d, context=ctx)
    t1 = time.perf_counter()
    print(f"{args.nsys} systems x {args.n} rows ({args.dtype}): {1e3 * (t1 - t0):.2f} ms")

    # scipy, one system at a time (in float64), on a sample of the batch.
    worst = 0.0
    check = rng.choice(args.nsys, size=min(args.nsys, 200), replace=False)
    for s in check:
        ab = np.zeros((3, args.n))
        ab[0, 1:] = c[s, :-1]
        ab[1] = b[s]
        ab[2, :-1] = a[s, 1:]
        ref = solve_banded((1, 1), ab, d[s].astype(np.float64))
        # Normwise per system: elementwise ratios blow up on entries near zero,
        # and the GPU's cooperative solver eliminates in another order.
        worst = max(worst, float(np.max(np.abs(x[s] - ref)) / (np.max(np.abs(ref)) + 1e-300)))
    ratio, sys_worst = hb.tridiagonal_residual(a, b, c, x, d)
    limit = 1e-10 if args.dtype == "float64" else 1e-3
    ok = worst < limit and ratio < 30
    print(f"largest normwise difference from scipy over {check.size} systems: {worst:.2e} "
          f"(limit {limit:g}); residual ratio {ratio:.2f} (system {sys_worst}, limit 30): "
          f"{'OK' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
