"""test_errors.py: every error path of the Python API raises the hinesbatch.Error subclass of the library's status, with its code and a message naming the argument, and leaves the caller's arrays as they were."""
from __future__ import annotations

import numpy as np
import pytest

import hinesbatch as hb
from conftest import random_hines, random_parent, random_tridiag


def raises(cls, status, match=None):
    class Check:
        def __enter__(self):
            self.ctx = pytest.raises(cls, match=match)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            r = self.ctx.__exit__(*exc)
            assert self.info.value.status == status
            assert isinstance(self.info.value, hb.Error)
            assert self.info.value.name == hb._core.status_name(status)
            assert self.info.value.message
            return r
    return Check()


def test_error_classes():
    assert issubclass(hb.InvalidArgumentError, ValueError)
    assert issubclass(hb.NumericalError, ArithmeticError)
    assert issubclass(hb.FileError, OSError)
    e = hb.InvalidArgumentError("x: bad")
    assert e.status == 1 and str(e) == "HB_ERR_INVALID_ARGUMENT: x: bad"


def test_bad_backend_names():
    with raises(hb.InvalidArgumentError, 1, "bogus"):
        hb.Context("bogus")
    z = np.ones((2, 3))
    with raises(hb.InvalidArgumentError, 1, "bogus"):
        hb.solve_tridiagonal(z, z, z, z, backend="bogus")
    with raises(hb.InvalidArgumentError, 1):
        hb.devices("nothing")


def test_backend_not_compiled():
    if "cuda" in hb.backends():
        pytest.skip("CUDA is compiled in")
    with raises(hb.BackendUnavailableError, 5, "cuda"):
        hb.Context("cuda")


def test_bad_device_index(backend):
    if backend in ("serial", "openmp"):
        with raises(hb.InvalidArgumentError, 1, "device"):
            hb.Context(backend, device=0)
    else:
        with raises(hb.BackendUnavailableError, 5):
            hb.Context(backend, device=99)


def test_context_and_backend_both():
    z = np.ones((2, 3))
    with raises(hb.InvalidArgumentError, 1, "not both"):
        hb.solve_tridiagonal(z, z, z, z, backend="serial", context=hb.Context("serial"))
    with raises(hb.InvalidArgumentError, 1, "context"):
        hb.solve_tridiagonal(z, z, z, z, context="serial")


def test_shapes(rng):
    a, b, c, d = random_tridiag(rng, (4, 5), np.float64)
    with raises(hb.InvalidArgumentError, 1, "a: shape"):
        hb.solve_tridiagonal(a[:, :4], b, c, d, backend="serial")
    with raises(hb.InvalidArgumentError, 1, "d: shape"):
        hb.solve_tridiagonal(a, b, c, d.reshape(2, 2, 5), backend="serial")
    with raises(hb.InvalidArgumentError, 1, "with offsets"):
        hb.solve_tridiagonal(a, b, c, d, offsets=[0, 20], backend="serial")
    with raises(hb.InvalidArgumentError, 1, "offsets"):
        hb.solve_tridiagonal(a.ravel(), b.ravel(), c.ravel(), d.ravel(), offsets=[[0, 20]],
                             backend="serial")
    with raises(hb.InvalidArgumentError, 1, "elements"):  # offsets[-1] != rows
        hb.solve_tridiagonal(a.ravel(), b.ravel(), c.ravel(), d.ravel(), offsets=[0, 10, 19],
                             backend="serial")
    with raises(hb.InvalidArgumentError, 1, "offsets: dtype"):
        hb.solve_tridiagonal(a.ravel(), b.ravel(), c.ravel(), d.ravel(), offsets=[0.0, 20.0],
                             backend="serial")
    # Systems of no rows are named as such (not "offsets not strictly increasing").
    z = np.ones((4, 0))
    with raises(hb.InvalidArgumentError, 1, r"d: shape \(4, 0\): systems of 0 rows"):
        hb.solve_tridiagonal(z, z, z, z, backend="serial")
    with raises(hb.InvalidArgumentError, 1, r"rhs: shape \(0,\): systems of 0 rows"):
        hb.solve_hines(np.zeros(0, np.int32), z[0], z[0], z[0], z[0], backend="serial")


def test_bad_offsets_get_library_code(rng):
    a, b, c, d = random_tridiag(rng, (20,), np.float64)
    for off in ([1, 10, 20], [0, 12, 10, 20]):
        d0 = d.copy()
        with raises(hb.InvalidArgumentError, 1, "offsets"):
            hb.solve_tridiagonal(a, b, c, d, offsets=off, inplace=True, backend="serial")
        np.testing.assert_array_equal(d, d0)


def test_dtypes(rng):
    a, b, c, d = random_tridiag(rng, (3, 4), np.float64)
    with raises(hb.InvalidArgumentError, 1, "d: dtype int64"):
        hb.solve_tridiagonal(a, b, c, d.astype(np.int64), backend="serial")
    with raises(hb.InvalidArgumentError, 1, "b: dtype float32 differs"):
        hb.solve_tridiagonal(a, b.astype(np.float32), c, d, backend="serial")
    with raises(hb.InvalidArgumentError, 1, "dtype complex128"):
        hb.solve_tridiagonal(a, b, c, d.astype(np.complex128), backend="serial")
    with raises(hb.InvalidArgumentError, 1, "out: dtype"):
        hb.solve_tridiagonal(a, b, c, d, out=np.empty((3, 4), np.float32), backend="serial")
    with raises(hb.InvalidArgumentError, 1, "parent: dtype"):
        hb.solve_hines(np.zeros(4), a, b, c, d, backend="serial")


def test_non_contiguous_inplace_and_out(rng):
    a, b, c, d = random_tridiag(rng, (6, 8), np.float64)
    dt = d.T.copy().T  # Fortran order
    with raises(hb.InvalidArgumentError, 1, "C-contiguous"):
        hb.solve_tridiagonal(a, b, c, dt, inplace=True, backend="serial")
    with raises(hb.InvalidArgumentError, 1, "inplace needs a numpy array"):
        hb.solve_tridiagonal(a, b, c, d.tolist(), inplace=True, backend="serial")
    ro = d.copy()
    ro.flags.writeable = False
    with raises(hb.InvalidArgumentError, 1, "writeable"):
        hb.solve_tridiagonal(a, b, c, ro, inplace=True, backend="serial")
    with raises(hb.InvalidArgumentError, 1, "not both"):
        hb.solve_tridiagonal(a, b, c, d, inplace=True, out=np.empty_like(d), backend="serial")
    with raises(hb.InvalidArgumentError, 1, "out: shape"):
        hb.solve_tridiagonal(a, b, c, d, out=np.empty((8, 6)), backend="serial")
    # The binding's own check, below the Python layer.
    with raises(hb.InvalidArgumentError, 1, "C-contiguous"):
        hb._core.tridiag_solve(hb.Context("serial")._c, np.array([0, 6], np.int64),
                               a[:, 0], b[:, 0], c[:, 0], d[:, 0])


def test_nan_gets_library_code(rng, backend, dtype):
    a, b, c, d = random_tridiag(rng, (5, 7), dtype)
    d0 = d.copy()
    b[3, 2] = np.nan
    with raises(hb.NumericalError, 3, "system 3"):
        hb.solve_tridiagonal(a, b, c, d, inplace=True, backend=backend)
    np.testing.assert_array_equal(d, d0)  # never half-written
    parent = random_parent(rng, 7)
    u, l, dd, rhs = random_hines(rng, parent, dtype, 5)
    rhs[1, 4] = np.inf
    r0 = rhs.copy()
    with raises(hb.NumericalError, 3, "system 1"):
        hb.solve_hines(parent, u, l, dd, rhs, inplace=True, backend=backend)
    np.testing.assert_array_equal(rhs, r0)


def test_zero_pivot(backend):
    z = np.zeros((2, 3))
    d = np.ones((2, 3))
    out = np.full((2, 3), 7.0)
    with raises(hb.NumericalError, 3):
        hb.solve_tridiagonal(z, z, z, d, out=out, backend=backend)
    assert np.all(out == 7.0)  # out untouched on error


def test_invalid_tree(rng):
    u, l, d, rhs = random_hines(rng, random_parent(rng, 5), np.float64, 2)
    for bad in ([-1, 0, 3, 1, 2], [0, 0, 1, 2, 3], [-1, -1, 0, 1, 2]):
        with pytest.raises(hb.Error) as e:
            hb.solve_hines(np.array(bad), u, l, d, rhs, backend="serial")
        assert e.value.status in (1, 2)
        assert "parent" in e.value.message
    with raises(hb.InvalidArgumentError, 1, "parent: shape"):
        hb.solve_hines(np.array([-1, 0, 1]), u, l, d, rhs, backend="serial")
    with raises(hb.InvalidArgumentError, 1, "int32"):
        hb.solve_hines(np.array([-1, 0, 1, 2, 2**40]), u, l, d, rhs, backend="serial")


def test_mixed_host_and_device_names_argument():
    class FakeDevice:  # says it lives on a CUDA device (DLPack device type 2)
        shape = (2, 3)

        def __dlpack_device__(self):
            return (2, 0)
    z = np.ones((2, 3))
    with raises(hb.InvalidArgumentError, 1, "a: a host array among device arrays"):
        hb.solve_tridiagonal(z, FakeDevice(), FakeDevice(), FakeDevice(), backend="serial")


def test_plan_errors(rng, backend):
    with raises(hb.InvalidArgumentError, 1, "dtype"):
        hb.Plan.tridiagonal(2, 3, dtype=np.int32, backend=backend)
    with raises(hb.InvalidArgumentError, 1, "unknown"):
        hb.Plan.tridiagonal(2, 3, backend=backend, colour="blue")
    with raises(hb.InvalidArgumentError, 1, "layout"):
        hb.Plan.tridiagonal(2, 3, backend=backend, layout="diagonal")
    with raises(hb.InvalidArgumentError, 1, "block_size: a value of the wrong type"):
        hb.Plan.tridiagonal(2, 3, backend=backend, block_size="x")
    with raises(hb.InvalidArgumentError, 1):
        hb.Plan.tridiagonal(-1, 3, backend=backend)
    with raises(hb.InvalidArgumentError, 1, "give nsys and n"):
        hb.Plan.tridiagonal(2, backend=backend)
    p = hb.Plan.tridiagonal(2, 3, backend=backend)
    with raises(hb.InvalidArgumentError, 1, "u: no array"):
        p.set(u=np.ones((2, 3)))
    with raises(hb.InvalidArgumentError, 1, "dtype"):
        p.set(b=np.ones((2, 3), np.float32))
    with raises(hb.InvalidArgumentError, 1, "shape"):
        p.set(b=np.ones((3, 3)))
    with raises(hb.NumericalError, 3):
        p.set(b=np.full((2, 3), np.nan))
    p.set(a=np.zeros((2, 3)), b=np.ones((2, 3)), c=np.zeros((2, 3)), rhs=np.ones((2, 3)))
    p.solve()
    with raises(hb.InvalidArgumentError, 1):
        p.solve()  # rhs not set again
    with raises(hb.InvalidArgumentError, 1, "which"):
        p.handle("x")
    with raises(hb.InvalidTreeError, 2):
        hb.Plan.hines(np.array([-1, 0, 5]), 2, backend=backend)


def test_morph_errors(tmp_path):
    with raises(hb.FileError, 7):
        hb.load_swc(tmp_path / "missing.swc")
    with raises(hb.ParseError, 8, "bad.swc:2"):
        hb.Morphology.parse("1 1 0 0 0 1 -1\n2 3 0 0 x 1 1\n", name="bad.swc")
    with raises(hb.ParseError, 8):
        hb.Morphology.parse("1 1 0 0 0 1 -1\n2 3 0 0 1 1 -1\n")  # two roots
    m = hb.Morphology.parse("1 1 0 0 0 5 -1\n2 3 0 0 10 1 1\n")
    with raises(hb.InvalidArgumentError, 1, "policy"):
        m.discretise("voxel")
    with raises(hb.InvalidArgumentError, 1):
        m.discretise(ra=-1)
    with raises(hb.InvalidArgumentError, 1, "cable"):
        hb._core.Cell.from_parent(np.array([-1, 0], np.int32), 10.0, 1.0, {"rx": 1.0})
    with raises(hb.InvalidArgumentError, 1, "nsys"):
        hb.batch(m.discretise())
    with raises(hb.InvalidArgumentError, 1):
        hb.Cell.synth_levels(3, 40)
    # A NUL byte in a string for the library is refused, naming the argument:
    # C reads only the text before it (another file, a shorter name).
    (tmp_path / "a.swc").write_text("1 1 0 0 0 5 -1\n")
    with raises(hb.InvalidArgumentError, 1, "path: a NUL byte at character"):
        hb.load_swc(str(tmp_path / "a.swc") + "\0.bak")
    with raises(hb.InvalidArgumentError, 1, "name: a NUL byte"):
        hb.Morphology.parse("1 1 0 0 0 5 -1\n", name="a.swc\0b")
    with raises(hb.InvalidArgumentError, 1, "cells: an empty list"):
        hb.batch([])


def test_sim_errors():
    cell = hb.Cell.synth_levels(64, 3)
    with raises(hb.InvalidArgumentError, 1, "unknown"):
        hb.Simulation(cell, 2, backend="serial", colour=1)
    with raises(hb.InvalidArgumentError, 1, "celsius: a value of the wrong type"):
        hb.Simulation(cell, 2, backend="serial", celsius="warm")
    with raises(hb.InvalidArgumentError, 1, "cells"):
        hb.Simulation([cell, "x"], backend="serial")
    with raises(hb.InvalidArgumentError, 1):
        hb.Simulation(cell, 2, backend="serial", dt=-1)
    with raises(hb.InvalidArgumentError, 1):
        hb.Simulation(hb.Cell.synth_levels(64, 3, gm=1e-4), 2, backend="serial")
    for n in (0, -3):  # not "cells is NULL": the argument given is named
        with raises(hb.InvalidArgumentError, 1, f"ncells = {n}, must be >= 1"):
            hb.Simulation(cell, n, backend="serial")
    with raises(hb.InvalidArgumentError, 1, "cells: an empty list"):
        hb.Simulation([], backend="serial")
    s = hb.Simulation(cell, 2, backend="serial")
    # "hh\0x" would be inserted as hh, "pas\0" probed as pas.
    with raises(hb.InvalidArgumentError, 1, "mech: a NUL byte at character 2"):
        s.insert("hh\0x")
    with raises(hb.InvalidArgumentError, 1, "what: a NUL byte"):
        s.probe(0, -1, "v\0")
    with raises(hb.InvalidArgumentError, 1, "layout: a NUL byte"):
        hb.Simulation(cell, 1, backend="serial", plan={"layout": "flat\0"})
    with raises(hb.InvalidArgumentError, 1):
        s.record(5)
    with raises(hb.InvalidArgumentError, 1):
        s.add_iclamp(0, 0.1, compartment=1000)
    with raises(hb.InvalidArgumentError, 1, "which"):
        s.state("q")
