"""test_tridiagonal.py: solve_tridiagonal against scipy.linalg.solve_banded and the serial backend (the C oracle), on every CPU backend, float32 and float64, uniform and variable batches, new arrays, out= and in place."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import solve_banded

import hinesbatch as hb
from conftest import banded, random_tridiag, tol


def scipy_solve(a, b, c, d):
    return np.array([solve_banded((1, 1), banded(a[s], b[s], c[s]), d[s].astype(np.float64))
                     for s in range(d.shape[0])])


@pytest.mark.parametrize("shape", [(1, 1), (3, 2), (17, 33), (64, 200)])
def test_uniform_against_scipy_and_oracle(rng, backend, dtype, shape):
    a, b, c, d = random_tridiag(rng, shape, dtype)
    d0 = d.copy()
    x = hb.solve_tridiagonal(a, b, c, d, backend=backend)
    assert x.dtype == dtype and x.shape == shape
    np.testing.assert_array_equal(d, d0)  # inputs untouched
    np.testing.assert_allclose(x, scipy_solve(a, b, c, d), rtol=tol(dtype), atol=tol(dtype))
    oracle = hb.solve_tridiagonal(a, b, c, d, backend="serial")
    np.testing.assert_allclose(x, oracle, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    ratio, _ = hb.tridiagonal_residual(a, b, c, x, d)
    assert ratio < 30


def test_variable_against_scipy(rng, backend, dtype):
    sizes = rng.integers(1, 60, 25)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    a, b, c, d = random_tridiag(rng, (int(offsets[-1]),), dtype)
    x = hb.solve_tridiagonal(a, b, c, d, offsets=offsets, backend=backend)
    for s in range(sizes.size):
        r = slice(offsets[s], offsets[s + 1])
        ref = solve_banded((1, 1), banded(a[r], b[r], c[r]), d[r].astype(np.float64))
        np.testing.assert_allclose(x[r], ref, rtol=tol(dtype), atol=tol(dtype))
    oracle = hb.solve_tridiagonal(a, b, c, d, offsets=offsets, backend="serial")
    np.testing.assert_allclose(x, oracle, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    ratio, _ = hb.tridiagonal_residual(a, b, c, x, d, offsets=offsets)
    assert ratio < 30


def test_one_system_1d(rng, backend):
    a, b, c, d = random_tridiag(rng, (40,), np.float64)
    x = hb.solve_tridiagonal(a, b, c, d, backend=backend)
    ref = solve_banded((1, 1), banded(a, b, c), d)
    np.testing.assert_allclose(x, ref, rtol=1e-10)


def test_inplace_and_out(rng, backend, dtype):
    a, b, c, d = random_tridiag(rng, (8, 30), dtype)
    ref = hb.solve_tridiagonal(a, b, c, d, backend="serial")
    out = np.full_like(d, np.nan)
    r = hb.solve_tridiagonal(a, b, c, d, out=out, backend=backend)
    assert r is out
    # Normwise: a GPU's cooperative solver eliminates in another order than
    # the serial oracle, so entries near zero differ relatively more.
    np.testing.assert_allclose(out, ref, rtol=tol(dtype) / 100,
                               atol=tol(dtype) * float(np.max(np.abs(ref))))
    dd = d.copy()
    r = hb.solve_tridiagonal(a, b, c, dd, inplace=True, backend=backend)
    assert r is dd
    np.testing.assert_allclose(dd, ref, rtol=tol(dtype) / 100)


def test_non_contiguous_inputs_copied(rng, backend):
    a, b, c, d = random_tridiag(rng, (30, 20), np.float64)
    x = hb.solve_tridiagonal(a.T, b.T, c.T, d.T, backend=backend)  # 20 systems of 30 rows
    ref = scipy_solve(np.ascontiguousarray(a.T), np.ascontiguousarray(b.T),
                      np.ascontiguousarray(c.T), np.ascontiguousarray(d.T))
    np.testing.assert_allclose(x, ref, rtol=1e-10)


def test_context_object(rng, backend):
    ctx = hb.Context(backend)
    assert ctx.backend == backend
    assert backend in ctx.describe()
    a, b, c, d = random_tridiag(rng, (4, 9), np.float64)
    x = hb.solve_tridiagonal(a, b, c, d, context=ctx)
    np.testing.assert_allclose(x, scipy_solve(a, b, c, d), rtol=1e-10)


def test_empty_batch(backend):
    z = np.zeros((0, 5))
    x = hb.solve_tridiagonal(z, z, z, z, backend=backend)
    assert x.shape == (0, 5)
