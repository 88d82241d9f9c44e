"""test_hines.py: solve_hines against dense numpy solves and the serial backend, on every CPU backend, float32 and float64, one shared tree, a tree per system, and variable batches."""
from __future__ import annotations

import numpy as np
import pytest

import hinesbatch as hb
from conftest import dense_hines, random_hines, random_parent, tol


@pytest.mark.parametrize("nsys,n", [(1, 1), (5, 12), (40, 90)])
def test_shared_tree(rng, backend, dtype, nsys, n):
    parent = random_parent(rng, n)
    u, l, d, rhs = random_hines(rng, parent, dtype, nsys)
    rhs0 = rhs.copy()
    x = hb.solve_hines(parent, u, l, d, rhs, backend=backend)
    assert x.dtype == dtype and x.shape == (nsys, n)
    np.testing.assert_array_equal(rhs, rhs0)
    for s in range(nsys):
        ref = np.linalg.solve(dense_hines(parent, u[s], l[s], d[s]), rhs[s].astype(np.float64))
        np.testing.assert_allclose(x[s], ref, rtol=tol(dtype), atol=tol(dtype))
    oracle = hb.solve_hines(parent, u, l, d, rhs, backend="serial")
    np.testing.assert_allclose(x, oracle, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    ratio, _ = hb.hines_residual(parent, u, l, d, x, rhs)
    assert ratio < 30


def test_tree_per_system(rng, backend, dtype):
    nsys, n = 6, 25
    parents = np.stack([random_parent(rng, n) for _ in range(nsys)])
    sets = [random_hines(rng, parents[s], dtype) for s in range(nsys)]
    u, l, d, rhs = (np.concatenate([st[i] for st in sets]) for i in range(4))
    x = hb.solve_hines(parents, u, l, d, rhs, backend=backend)
    for s in range(nsys):
        ref = np.linalg.solve(dense_hines(parents[s], u[s], l[s], d[s]), rhs[s].astype(np.float64))
        np.testing.assert_allclose(x[s], ref, rtol=tol(dtype), atol=tol(dtype))


def test_variable(rng, backend, dtype):
    sizes = rng.integers(1, 50, 12)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    parts = []
    for n in sizes:
        p = random_parent(rng, int(n))
        parts.append((p,) + tuple(x[0] for x in random_hines(rng, p, dtype)))
    parent, u, l, d, rhs = (np.concatenate([pt[i] for pt in parts]) for i in range(5))
    x = hb.solve_hines(parent, u, l, d, rhs, offsets=offsets, backend=backend)
    for s, pt in enumerate(parts):
        r = slice(offsets[s], offsets[s + 1])
        ref = np.linalg.solve(dense_hines(*pt[:4]), pt[4].astype(np.float64))
        np.testing.assert_allclose(x[r], ref, rtol=tol(dtype), atol=tol(dtype))
    oracle = hb.solve_hines(parent, u, l, d, rhs, offsets=offsets, backend="serial")
    np.testing.assert_allclose(x, oracle, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)


def test_inplace_and_out(rng, backend):
    parent = random_parent(rng, 30)
    u, l, d, rhs = random_hines(rng, parent, np.float64, 4)
    ref = hb.solve_hines(parent, u, l, d, rhs, backend="serial")
    out = np.empty_like(rhs)
    assert hb.solve_hines(parent, u, l, d, rhs, out=out, backend=backend) is out
    np.testing.assert_allclose(out, ref, rtol=1e-12)
    d0 = d.copy()
    r = rhs.copy()
    assert hb.solve_hines(parent, u, l, d, r, inplace=True, backend=backend) is r
    np.testing.assert_allclose(r, ref, rtol=1e-12)
    np.testing.assert_array_equal(d, d0)  # d is the caller's: not eliminated in place


def test_cell_matrix_steady_state(backend):
    # A passive cell with a current into the soma: the steady state has no
    # C/dt term, and the voltage falls with distance from the injection.
    cell = hb.Cell.synth_levels(256, 4, gm=1e-4)
    d, u, l = cell.matrix(np.inf)
    rhs = np.zeros(cell.n)
    rhs[0] = 0.1  # nA
    v = hb.solve_hines(cell.parent, u, l, d, rhs, backend=backend)
    assert np.all(v > 0) and v[0] == v.max()
    A = dense_hines(cell.parent, u, l, d)
    np.testing.assert_allclose(A @ v, rhs, atol=1e-12)
