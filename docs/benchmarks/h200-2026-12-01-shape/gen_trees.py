#!/usr/bin/env python3
"""gen_trees.py: synthetic SWC neurons of chosen depth for AUTO's strategy measurements (seeded)."""
import math
import random
import sys


def grow(rng, swc, parent, x, y, z, depth, maxdepth, trunk, diam, pcont):
    """One branch from (x, y, z), then its children: a trunk branch continues
    (with probability pcont) as a trunk and sends one short side tree; side
    trees bifurcate at random until maxdepth."""
    length = rng.uniform(40, 160) if trunk else rng.uniform(15, 90)
    nseg = max(2, int(length / 10))
    th, ph = rng.uniform(0, 2 * math.pi), rng.uniform(0.2, 1.2)
    dx, dy, dz = math.cos(th) * math.sin(ph), math.cos(ph), math.sin(th) * math.sin(ph)
    for _ in range(nseg):
        x, y, z = x + dx * length / nseg, y + dy * length / nseg, z + dz * length / nseg
        swc.append((len(swc) + 1, 3, x, y, z, diam / 2, parent))
        parent = len(swc)
    if depth >= maxdepth:
        return
    if trunk:
        if rng.random() < pcont:
            grow(rng, swc, parent, x, y, z, depth + 1, maxdepth, True, max(diam * 0.93, 0.4), pcont)
        grow(rng, swc, parent, x, y, z, depth + 1, min(maxdepth, depth + rng.randint(1, 4)),
             False, max(diam * 0.5, 0.3), pcont)
    else:
        for _ in range(2 if rng.random() < 0.7 else 1):
            grow(rng, swc, parent, x, y, z, depth + 1, maxdepth, False, max(diam * 0.75, 0.25),
                 pcont)


def tree(seed, stems, maxdepth, pcont):
    rng = random.Random(seed)
    swc = [(1, 1, 0.0, 0.0, 0.0, 8.0, -1)]
    for s in range(stems):
        # The first stem is the trunk; the others are side trees of a few levels.
        depth = maxdepth if s == 0 else min(maxdepth, rng.randint(3, 7))
        grow(rng, swc, 1, 0.0, 0.0, 0.0, 1, depth, s == 0, 3.0 if s == 0 else 1.5, pcont)
    return swc


if __name__ == "__main__":
    # name seed stems maxdepth pcont
    for name, seed, stems, depth, pcont in [
        ("deep40", 11, 4, 40, 0.97), ("deep30", 12, 6, 30, 0.95), ("deep24", 13, 8, 24, 0.95),
        ("mid18", 14, 6, 18, 0.9), ("wide12", 15, 12, 12, 0.9), ("deep50", 16, 3, 50, 0.98),
        ("mid20", 17, 10, 20, 0.9), ("deep35", 18, 5, 35, 0.96), ("big30", 21, 8, 30, 0.99),
        ("big45", 22, 6, 45, 0.99), ("big25", 23, 12, 25, 0.99), ("deep60", 24, 4, 60, 0.99),
        # Held out of the fit: AUTO's check (call 2).
        ("v_deep32", 31, 5, 32, 0.97), ("v_wide16", 32, 14, 16, 0.92), ("v_big40", 33, 7, 40, 0.99),
        ("v_mid25", 34, 9, 25, 0.93), ("v_deep45", 35, 3, 45, 0.985), ("v_big20", 36, 16, 20, 0.99),
    ]:
        with open(f"{sys.argv[1]}/{name}.swc", "w") as f:
            f.write(f"# gen_trees.py: seed {seed}, {stems} stems, depth {depth}, trunk {pcont}\n")
            for r in tree(seed, stems, depth, pcont):
                f.write("%d %d %.3f %.3f %.3f %.3f %d\n" % r)
