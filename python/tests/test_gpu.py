"""test_gpu.py: GPU arrays (CuPy; PyTorch when present) solved on the CUDA backend without leaving the device, against the serial oracle on host copies; skipped without CuPy, a GPU or the CUDA backend."""
from __future__ import annotations

import numpy as np
import pytest

import hinesbatch as hb
from conftest import random_hines, random_parent, random_tridiag, tol

cp = pytest.importorskip("cupy")
try:
    _ngpu = cp.cuda.runtime.getDeviceCount()
except Exception:  # no driver
    _ngpu = 0
pytestmark = [
    pytest.mark.skipif(_ngpu == 0, reason="no CUDA device"),
    pytest.mark.skipif("cuda" not in hb.backends(), reason="CUDA backend not compiled in"),
]


@pytest.fixture(scope="module")
def cuda():
    return hb.Context("cuda")


@pytest.mark.parametrize("shape", [(1, 1), (33, 65), (1000, 128)])
def test_tridiagonal_inplace_on_device(rng, cuda, dtype, shape):
    a, b, c, d = random_tridiag(rng, shape, dtype)
    ref = hb.solve_tridiagonal(a, b, c, d, backend="serial")
    ga, gb, gc, gd = (cp.asarray(x) for x in (a, b, c, d))
    ptr = gd.data.ptr
    r = hb.solve_tridiagonal(ga, gb, gc, gd, inplace=True, context=cuda)
    assert r is gd and gd.data.ptr == ptr and isinstance(r, cp.ndarray)
    np.testing.assert_allclose(cp.asnumpy(gd), ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    np.testing.assert_array_equal(cp.asnumpy(gb), b)  # coefficients untouched


def test_tridiagonal_new_array_and_variable(rng, cuda):
    sizes = rng.integers(1, 300, 50)
    off = np.concatenate([[0], np.cumsum(sizes)])
    a, b, c, d = random_tridiag(rng, (int(off[-1]),), np.float64)
    g = [cp.asarray(x) for x in (a, b, c, d)]
    x = hb.solve_tridiagonal(*g, offsets=off, context=cuda)
    assert isinstance(x, cp.ndarray) and x.data.ptr != g[3].data.ptr
    ref = hb.solve_tridiagonal(a, b, c, d, offsets=off, backend="serial")
    np.testing.assert_allclose(cp.asnumpy(x), ref, rtol=1e-12, atol=1e-12)
    out = cp.empty_like(g[3])
    assert hb.solve_tridiagonal(*g, offsets=off, out=out, context=cuda) is out


def test_hines_inplace_on_device(rng, cuda, dtype):
    parent = random_parent(rng, 200)
    u, l, d, rhs = random_hines(rng, parent, dtype, 64)
    ref = hb.solve_hines(parent, u, l, d, rhs, backend="serial")
    g = [cp.asarray(x) for x in (u, l, d, rhs)]
    r = hb.solve_hines(cp.asarray(parent), *g, inplace=True, context=cuda)
    assert r is g[3]
    np.testing.assert_allclose(cp.asnumpy(g[3]), ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    np.testing.assert_array_equal(cp.asnumpy(g[2]), d)  # d is not eliminated in place


def test_plan_device_set_solution_and_buffer(rng, cuda):
    nsys, n = 128, 64
    p = hb.Plan.tridiagonal(nsys, n, context=cuda, layout="flat")
    a, b, c, d = random_tridiag(rng, (nsys, n), np.float64)
    p.set(a=cp.asarray(a), b=cp.asarray(b), c=cp.asarray(c), rhs=cp.asarray(d)).solve()
    out = cp.empty((nsys, n))
    p.solution(out=out)
    ref = hb.solve_tridiagonal(a, b, c, d, backend="serial")
    np.testing.assert_allclose(cp.asnumpy(out), ref, rtol=1e-12)
    # The plan's own buffer as a CuPy array (DLPack, no copy).
    rhs = cp.from_dlpack(p.buffer("rhs"))
    assert rhs.shape == (nsys * n,) and rhs.data.ptr == p.handle("rhs")
    rhs[...] = cp.asarray(d.ravel())
    np.testing.assert_allclose(p.solve().solution(), ref, rtol=1e-12)


def test_device_errors(rng, cuda):
    a, b, c, d = (cp.asarray(x) for x in random_tridiag(rng, (4, 6), np.float64))
    with pytest.raises(hb.BackendUnavailableError):
        hb.solve_tridiagonal(a, b, c, d, backend="serial")
    with pytest.raises(hb.InvalidArgumentError, match="C-contiguous"):
        hb.solve_tridiagonal(a.T, b.T, c.T, cp.ascontiguousarray(d.T), context=cuda)
    with pytest.raises(hb.InvalidArgumentError, match="dtype"):
        hb.solve_tridiagonal(a, b.astype(cp.float32), c, d, context=cuda)
    p = hb.Plan.hines(random_parent(rng, 50), 8, context=cuda, strategy="branch-level")
    with pytest.raises(hb.InvalidArgumentError, match="flat"):
        p.set(rhs=cp.zeros((8, 50)))


def test_torch(rng, cuda):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    a, b, c, d = random_tridiag(rng, (16, 32), np.float32)
    t = [torch.from_numpy(x).cuda() for x in (a, b, c, d)]
    r = hb.solve_tridiagonal(*t, inplace=True, context=cuda)
    assert r is t[3]
    ref = hb.solve_tridiagonal(a, b, c, d, backend="serial")
    np.testing.assert_allclose(t[3].cpu().numpy(), ref, rtol=1e-6, atol=1e-6)


def test_device_arrays_need_a_cuda_plan(rng):
    p = hb.Plan.tridiagonal(2, 3, backend="serial", layout="flat")
    with pytest.raises(hb.BackendUnavailableError, match="CUDA"):
        p.set(rhs=cp.zeros((2, 3)))
    with pytest.raises(hb.BackendUnavailableError, match="CUDA"):
        p.solution(out=cp.zeros((2, 3)))


def test_host_arrays_on_cuda(rng, cuda, dtype):
    # numpy in, numpy out, solved on the GPU: one-shot, plans in every layout,
    # and a simulation, each against the serial oracle.
    a, b, c, d = random_tridiag(rng, (300, 70), dtype)
    x = hb.solve_tridiagonal(a, b, c, d, context=cuda)
    assert isinstance(x, np.ndarray) and x.dtype == dtype
    ref = hb.solve_tridiagonal(a, b, c, d, backend="serial")
    np.testing.assert_allclose(x, ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    for layout in ("flat", "full-interleaved", "block-interleaved", "block-shared"):
        p = hb.Plan.tridiagonal(300, 70, dtype=dtype, context=cuda, layout=layout)
        y = p.set(a=a, b=b, c=c, rhs=d).solve().solution()
        np.testing.assert_allclose(y, ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    parent = random_parent(rng, 120)
    u, l, dd, rhs = random_hines(rng, parent, dtype, 50)
    for strategy in ("per-system", "branch-level", "fine-tree"):
        v = hb.solve_hines(parent, u, l, dd, rhs, context=cuda)
        p = hb.Plan.hines(parent, 50, dtype=dtype, context=cuda, strategy=strategy)
        w = p.set(u=u, l=l, d=dd, rhs=rhs).solve().solution()
        ref = hb.solve_hines(parent, u, l, dd, rhs, backend="serial")
        # Branch strategies eliminate in another order: the looser bound.
        np.testing.assert_allclose(v, ref, rtol=tol(dtype), atol=tol(dtype))
        np.testing.assert_allclose(w, ref, rtol=tol(dtype), atol=tol(dtype))
    cell = hb.Cell.synth_levels(256, 4)
    sims = []
    for ctx in (cuda, hb.Context("serial")):
        s = hb.Simulation(cell, 8, context=ctx, dtype=dtype.name)
        s.add_iclamp(range(8), 0.5, 2, 20).record([0, 7]).run(25)
        sims.append(s)
    assert "cuda" in sims[0].describe()
    assert np.all(np.abs(sims[0].spike_counts() - sims[1].spike_counts()) <= 1)
    np.testing.assert_allclose(sims[0].traces()[1], sims[1].traces()[1],
                               atol=1e-6 if dtype == np.float64 else 0.5)
