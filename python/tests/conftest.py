"""conftest.py: shared fixtures of the Python tests: the seeded random generator (seed printed), the CPU backends that open here, random batches."""
from __future__ import annotations

import os
import secrets
import zlib

import numpy as np
import pytest

# OpenMP threads that spin while waiting starve each other on a shared,
# loaded machine (as in tests/CMakeLists.txt); read when the library loads.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

import hinesbatch as hb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "data", "morphologies")

# One seed per session, drawn fresh unless HB_TEST_SEED repeats one.
SEED = int(os.environ.get("HB_TEST_SEED", secrets.randbits(32)))


def pytest_report_header(config):
    return [f"hinesbatch {hb.__version__}, backends {hb.backends()}, "
            f"seed {SEED} (HB_TEST_SEED={SEED} repeats it)"]


def _opens(name: str) -> bool:
    try:
        hb.Context(name)
        return True
    except hb.Error:
        return False


# Every compiled CPU backend that opens here (OpenCL: through PoCL).
CPU_BACKENDS = [b for b in hb.backends() if b != "cuda" and _opens(b)]
DTYPES = [np.float64, np.float32]


@pytest.fixture
def rng(request):
    # Each test its own stream from the session seed and its name.
    print(f"seed {SEED} ({request.node.name})")
    return np.random.default_rng([SEED, zlib.crc32(request.node.name.encode())])


@pytest.fixture(params=CPU_BACKENDS)
def backend(request):
    return request.param


@pytest.fixture(params=DTYPES, ids=["float64", "float32"])
def dtype(request):
    return np.dtype(request.param)


def tol(dtype) -> float:
    """Relative tolerance against scipy/numpy for diagonally dominant systems."""
    return 1e-10 if np.dtype(dtype) == np.float64 else 2e-4


def random_tridiag(rng, shape, dtype):
    """Diagonally dominant tridiagonal coefficients and a right-hand side."""
    a = rng.uniform(-1, 1, shape)
    c = rng.uniform(-1, 1, shape)
    b = np.abs(a) + np.abs(c) + rng.uniform(0.5, 2, shape)
    d = rng.uniform(-1, 1, shape)
    return tuple(x.astype(dtype) for x in (a, b, c, d))


def random_parent(rng, n):
    """A random tree in Hines order: parent[0] = -1, parent[k] < k."""
    p = np.empty(n, dtype=np.int32)
    p[0] = -1
    for k in range(1, n):
        # Mostly chains (as neurons), sometimes a branch.
        p[k] = k - 1 if rng.random() < 0.8 else rng.integers(0, k)
    return p


def random_hines(rng, parent, dtype, nsys=1):
    """u, l, d, rhs (nsys x n) diagonally dominant for the tree parent."""
    n = parent.shape[0]
    u = rng.uniform(-1, 0, (nsys, n))
    l = rng.uniform(-1, 0, (nsys, n))
    u[:, 0] = l[:, 0] = 0
    d = rng.uniform(0.5, 2, (nsys, n)) + np.abs(u) + np.abs(l)
    for k in range(1, n):  # the parent row holds u[k] and l[k] too
        d[:, parent[k]] += np.abs(u[:, k]) + np.abs(l[:, k])
    rhs = rng.uniform(-1, 1, (nsys, n))
    return tuple(x.astype(dtype) for x in (u, l, d, rhs))


def dense_hines(parent, u, l, d):
    """The dense matrix of one Hines system."""
    n = parent.shape[0]
    A = np.diag(d.astype(np.float64))
    for k in range(1, n):
        A[parent[k], k] = u[k]
        A[k, parent[k]] = l[k]
    return A


def banded(a, b, c):
    """scipy.linalg.solve_banded's (1, 1) form of one tridiagonal system."""
    n = b.shape[0]
    ab = np.zeros((3, n))
    ab[0, 1:] = c[:-1]
    ab[1] = b
    ab[2, :-1] = a[1:]
    return ab
