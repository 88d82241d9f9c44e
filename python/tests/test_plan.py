"""test_plan.py: Plan objects on every CPU backend: each layout and strategy against the serial oracle, repeated solves, info/layout/index agreeing, host buffers as numpy views."""
from __future__ import annotations

import numpy as np
import pytest

import hinesbatch as hb
from conftest import CPU_BACKENDS, random_hines, random_parent, random_tridiag, tol

LAYOUTS = ["auto", "flat", "full-interleaved", "block-interleaved", "block-shared"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_tridiagonal_layouts(rng, backend, dtype, layout):
    nsys, n = 37, 21
    p = hb.Plan.tridiagonal(nsys, n, dtype=dtype, backend=backend, layout=layout)
    info = p.info()
    assert info["nsys"] == nsys and info["nrows"] == nsys * n and info["dtype"] == dtype.name
    assert info["backend"] == backend and not info["hines"]
    # The cooperative fields: zero for other strategies (AUTO takes the
    # cooperative solver on GPUs, where the register kernel holds the rows on
    # CUDA and the resident one on OpenCL).
    if info["strategy"] != "cooperative":
        assert not info["resident"] and info["systems_per_group"] == 0
        assert info["rows_per_item"] == 0
    else:
        assert info["resident"] and info["systems_per_group"] >= 1
    if layout != "auto":
        assert p.layout()["layout"] == layout or (layout == "block-shared")
    assert backend in p.describe()
    for step in range(3):  # the same plan, new data each step
        a, b, c, d = random_tridiag(rng, (nsys, n), dtype)
        x = p.set(a=a, b=b, c=c, rhs=d).solve().solution()
        ref = hb.solve_tridiagonal(a, b, c, d, backend="serial")
        np.testing.assert_allclose(x, ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)


@pytest.mark.parametrize("strategy", ["per-system", "branch-level", "fine-tree"])
def test_hines_strategies(rng, backend, dtype, strategy):
    sizes = rng.integers(1, 40, 9)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    parents = [random_parent(rng, int(n)) for n in sizes]
    parent = np.concatenate(parents)
    p = hb.Plan.hines(parent, offsets=offsets, dtype=dtype, backend=backend, strategy=strategy)
    assert p.info()["strategy"] == strategy and p.info()["variable"]
    assert p.shape == (int(offsets[-1]),)
    for step in range(2):
        parts = [random_hines(rng, pp, dtype) for pp in parents]
        u, l, d, rhs = (np.concatenate([pt[i][0] for pt in parts]) for i in range(4))
        p.set(u=u, l=l, d=d, rhs=rhs).solve()
        out = np.empty_like(rhs)
        assert p.solution(out=out) is out
        ref = hb.solve_hines(parent, u, l, d, rhs, offsets=offsets, backend="serial")
        np.testing.assert_allclose(out, ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)


def test_hines_uniform_shared_tree(rng, backend):
    parent = random_parent(rng, 50)
    p = hb.Plan.hines(parent, 16, backend=backend, reroot=True)
    assert p.info()["shared_tree"] and p.shape == (16, 50)
    u, l, d, rhs = random_hines(rng, parent, np.float64, 16)
    x = p.set(u=u, l=l, d=d, rhs=rhs).solve().solution()
    np.testing.assert_allclose(x, hb.solve_hines(parent, u, l, d, rhs, backend="serial"),
                               rtol=1e-12)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_hines_shared_couplings(rng, backend, dtype, layout):
    nsys, n = 23, 40
    parent = random_parent(rng, n)
    p = hb.Plan.hines(parent, nsys, dtype=dtype, backend=backend, layout=layout,
                      shared_couplings=True)
    info = p.info()
    # AUTO: per-system here; cell-group where a GPU takes it for few cells.
    assert info["shared_couplings"] and info["strategy"] in ("per-system", "cell-group")
    assert "couplings=shared" in p.describe()
    u, l, d, rhs = random_hines(rng, parent, dtype, nsys)
    u1, l1 = u[0].copy(), l[0].copy()
    u[:], l[:] = u1, l1  # every system with system 0's couplings (d stays dominant)
    d = d + 2 * (np.abs(u) + np.abs(l)).astype(dtype)
    with pytest.raises(hb.InvalidArgumentError):
        p.set(u=u)  # a (nsys, n) array: the plan takes one system's
    p.set(u=u1, l=l1)
    for step in range(2):  # the couplings stay; d and rhs are set each step
        d2 = (d * (1 + 0.1 * step)).astype(dtype)
        x = p.set(d=d2, rhs=rhs).solve().solution()
        ref = hb.solve_hines(parent, u, l, d2, rhs, backend="serial")
        np.testing.assert_allclose(x, ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    with pytest.raises(hb.InvalidArgumentError):
        hb.Plan.hines(parent, nsys, backend=backend, strategy="fine-tree", shared_couplings=True)


def test_layout_index_and_bases(backend):
    p = hb.Plan.tridiagonal(10, 6, backend=backend, layout="block-interleaved", block_size=4)
    lay = p.layout()
    bases = p.system_bases()
    assert bases.shape == (10,)
    for s in range(10):
        for i in range(6):
            assert p.index(s, i) == bases[s] + i * lay["stride"]
    assert lay["length"] >= 60


def test_host_buffers_are_views(rng, backend):
    if backend == "opencl":
        p = hb.Plan.tridiagonal(3, 4, backend=backend)
        assert p.handle("rhs") != 0
        with pytest.raises(hb.InvalidArgumentError, match="cl_mem"):
            p.buffer("rhs")
        return
    nsys, n = 3, 4
    p = hb.Plan.tridiagonal(nsys, n, backend=backend, layout="flat")
    a, b, c, d = random_tridiag(rng, (nsys, n), np.float64)
    p.set(a=a, b=b, c=c)
    buf = p.buffer("rhs")
    assert isinstance(buf, np.ndarray) and buf.shape == (nsys * n,)
    buf[:] = d.ravel()  # written straight into the plan
    x = p.solve().solution()
    np.testing.assert_allclose(x, hb.solve_tridiagonal(a, b, c, d, backend="serial"), rtol=1e-12)
    assert p.handle("rhs") == buf.__array_interface__["data"][0]
    del p  # the buffer keeps its plan alive
    assert np.isfinite(buf).all()


def test_variable_tridiagonal_plan(rng, backend):
    offsets = np.array([0, 3, 10, 11, 30])
    p = hb.Plan.tridiagonal(offsets=offsets, backend=backend, dtype=np.float32)
    a, b, c, d = random_tridiag(rng, (30,), np.float32)
    x = p.set(a=a, b=b, c=c, rhs=d).solve().solution()
    ref = hb.solve_tridiagonal(a, b, c, d, offsets=offsets, backend="serial")
    np.testing.assert_allclose(x, ref, rtol=1e-5, atol=1e-6)


def test_hines_cell_group_shared_couplings(rng, dtype):
    """The cell-group solver with shared couplings (OpenCL alone among the CPU
    backends): d and rhs alone on chip, two arrays of rows (info's
    local_bytes, or with the schedule beside them), against the serial
    oracle over two steps that set only d and rhs."""
    if "opencl" not in CPU_BACKENDS:
        pytest.skip("no OpenCL device")
    nsys, n = 9, 300
    parent = random_parent(rng, n)
    p = hb.Plan.hines(parent, nsys, dtype=dtype, backend="opencl", strategy="cell-group",
                      shared_couplings=True)
    info = p.info()
    two = 2 * n * np.dtype(dtype).itemsize
    assert info["strategy"] == "cell-group" and info["shared_couplings"]
    assert info["local_bytes"] in (two, two + (8 * n + 16) * 4)
    u, l, d, rhs = random_hines(rng, parent, dtype, nsys)
    u[:], l[:] = u[0].copy(), l[0].copy()
    d = d + 2 * (np.abs(u) + np.abs(l)).astype(dtype)
    p.set(u=u[0], l=l[0])
    for step in range(2):
        d2 = (d * (1 + 0.1 * step)).astype(dtype)
        x = p.set(d=d2, rhs=rhs).solve().solution()
        ref = hb.solve_hines(parent, u, l, d2, rhs, backend="serial")
        np.testing.assert_allclose(x, ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    with pytest.raises(hb.InvalidArgumentError, match="branch-level"):
        hb.Plan.hines(parent, nsys, backend="opencl", strategy="branch-level",
                      shared_couplings=True)


@pytest.mark.parametrize("chain", [0, 1, 3, 2**31 - 1])
def test_hines_cell_group_chains(rng, dtype, chain):
    """The cell-group solver (OpenCL alone among the CPU backends) with runs cut
    at cell_chain nodes, random trees (rows not in depth-first order) against
    the serial oracle; a negative cell_chain is refused by name."""
    if "opencl" not in CPU_BACKENDS:
        pytest.skip("no OpenCL device")
    sizes = rng.integers(1, 120, 7)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    parents = [random_parent(rng, int(n)) for n in sizes]
    parent = np.concatenate(parents)
    p = hb.Plan.hines(parent, offsets=offsets, dtype=dtype, backend="opencl",
                      strategy="cell-group", cell_chain=chain)
    assert p.info()["strategy"] == "cell-group"
    parts = [random_hines(rng, pp, dtype) for pp in parents]
    u, l, d, rhs = (np.concatenate([pt[i][0] for pt in parts]) for i in range(4))
    x = p.set(u=u, l=l, d=d, rhs=rhs).solve().solution()
    ref = hb.solve_hines(parent, u, l, d, rhs, offsets=offsets, backend="serial")
    np.testing.assert_allclose(x, ref, rtol=tol(dtype) / 100, atol=tol(dtype) / 100)
    with pytest.raises(hb.InvalidArgumentError, match="cell_chain"):
        hb.Plan.hines(parent, offsets=offsets, dtype=dtype, backend="opencl",
                      strategy="cell-group", cell_chain=-1)
