"""_solve.py: the one-shot solvers solve_tridiagonal and solve_hines on numpy or GPU arrays, and the library's residual checks."""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _core
from ._arrays import (batch_shape, device_empty_like, for_core, host_float, is_device,
                      same_shape, to_host_index)
from ._context import Context, get_context
from ._errors import invalid

__all__ = ["solve_tridiagonal", "solve_hines", "tridiagonal_residual", "hines_residual"]


def _target(rhs: Any, given: Any, out: Any, inplace: bool, name: str) -> Tuple[np.ndarray, bool]:
    """Where a host solve writes: rhs itself (inplace), or a fresh C-ordered
    copy (copied into out after a successful solve, so an error leaves out
    as it was). Returns (array, whether to copy into out)."""
    if inplace and out is not None:
        raise invalid("give out or inplace, not both")
    if inplace:
        if given is not rhs or not isinstance(given, np.ndarray):
            raise invalid(f"{name}: inplace needs a numpy array of float32/float64, "
                          f"got {type(given).__name__}")
        if not rhs.flags.c_contiguous:
            raise invalid(f"{name}: inplace needs a C-contiguous array")
        if not rhs.flags.writeable:
            raise invalid(f"{name}: inplace needs a writeable array")
        return rhs, False
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise invalid(f"out: expected a numpy array, got {type(out).__name__}")
        if out.dtype != rhs.dtype:
            raise invalid(f"out: dtype {out.dtype}, expected {rhs.dtype}")
        if out.shape != rhs.shape:
            raise invalid(f"out: shape {out.shape}, expected {rhs.shape}")
        if not out.flags.writeable:
            raise invalid("out: not writeable")
    return np.array(rhs, dtype=rhs.dtype, order="C", copy=True), out is not None


def _device_target(rhs: Any, out: Any, inplace: bool) -> Any:
    if inplace and out is not None:
        raise invalid("give out or inplace, not both")
    if inplace:
        return rhs
    if out is not None:
        if not is_device(out):
            raise invalid("out: a device array is needed with device inputs")
        if tuple(out.shape) != tuple(rhs.shape):
            raise invalid(f"out: shape {tuple(out.shape)}, expected {tuple(rhs.shape)}")
        return out
    return device_empty_like(rhs)


def _all_device(named: Tuple[Tuple[str, Any], ...]) -> bool:
    dev = [is_device(x) for _, x in named]
    if any(dev) and not all(dev):
        host = [n for (n, _), d in zip(named, dev) if not d]
        raise invalid(f"{host[0]}: a host array among device arrays; give all on the device "
                      "or all on the host")
    return all(dev)


def solve_tridiagonal(a: Any, b: Any, c: Any, d: Any, *, offsets: Any = None,
                      out: Any = None, inplace: bool = False,
                      context: Optional[Context] = None,
                      backend: Optional[str] = None) -> Any:
    """Solve a batch of tridiagonal systems A x = d.

    Args:
        a, b, c: sub-, main and super-diagonal. ``a`` of each system's first row
            and ``c`` of its last are ignored.
        d: right-hand side. Uniform batches are 2-D (systems x rows), one
            system may be 1-D; variable batches are flat 1-D arrays with
            ``offsets`` (nsys + 1 entries, offsets[0] = 0, increasing: system
            s owns rows offsets[s]:offsets[s+1]).
        out: an array (same shape and dtype as d) to receive the solution.
        inplace: overwrite d with the solution (d must be C-contiguous).
        context, backend: where to solve: a Context, or a backend name for a
            shared one; neither: "auto" (HINESBATCH_BACKEND, then cuda, an
            OpenCL GPU, openmp, serial).

    float32 and float64 are kept (all arrays of one dtype). Arrays on a GPU
    (CuPy, PyTorch, JAX: DLPack or __cuda_array_interface__) are solved on
    the CUDA backend without leaving the device; the result is then a device
    array too.

    Returns:
        The solution, shaped as d (``out`` or ``d`` itself when given).

    Raises:
        InvalidArgumentError: shapes, dtypes, contiguity, offsets, names.
        NumericalError: a non-finite input or solution (zero pivot); the
            message names the system and row. Nothing is written then.
    """
    named = (("a", a), ("b", b), ("c", c), ("d", d))
    ctx = get_context(context, backend)
    if _all_device(named):
        off, _, _ = batch_shape(tuple(d.shape), offsets, "d")
        same_shape(named[:3], tuple(d.shape))
        target = _device_target(d, out, inplace)
        _core.device_solve(ctx._c, False, off, None, for_core(a), for_core(b), for_core(c),
                           for_core(d), for_core(target))
        return target
    rhs = host_float(d, "d")
    off, _, _ = batch_shape(rhs.shape, offsets, "d")
    coefs = [host_float(x, n, rhs.dtype) for n, x in named[:3]]
    same_shape(list(zip("abc", coefs)), rhs.shape)
    coefs = [np.ascontiguousarray(x) for x in coefs]
    x, copy_out = _target(rhs, d, out, inplace, "d")
    _core.tridiag_solve(ctx._c, off, coefs[0], coefs[1], coefs[2], x)
    if copy_out:
        out[...] = x
        return out
    return x


def _hines_parent(parent: Any, shape: Tuple[int, ...], nsys: int, nrows: int,
                  offsets: Any) -> np.ndarray:
    """The flat parent array of all rows: one tree (n entries) is repeated
    for every system of a uniform batch."""
    p = to_host_index(parent, "parent")
    if offsets is None and len(shape) == 2:
        if p.shape == (shape[1],):
            return np.ascontiguousarray(np.tile(p, nsys))
        if p.shape == tuple(shape):
            return p.reshape(-1)
        raise invalid(f"parent: shape {p.shape}, expected ({shape[1]},) (one tree) or {shape}")
    if p.shape != (nrows,):
        raise invalid(f"parent: shape {p.shape}, expected ({nrows},)")
    return p


def solve_hines(parent: Any, u: Any, l: Any, d: Any, rhs: Any, *, offsets: Any = None,
                out: Any = None, inplace: bool = False, context: Optional[Context] = None,
                backend: Optional[str] = None) -> Any:
    """Solve a batch of Hines (tree-structured) systems A x = rhs.

    Args:
        parent: parent of each row as an index local to its system: -1 at the
            system's first row, else 0 <= parent[k] < k. For a uniform batch
            one tree (n entries) serves every system, or give one per system
            (systems x rows).
        u: u[k] = A[parent[k]][k] (upper); l: l[k] = A[k][parent[k]] (lower);
            both ignored at roots.
        d: the diagonal.
        rhs: right-hand side: 2-D (systems x rows) for a uniform batch, 1-D
            for one system, or flat 1-D with ``offsets`` for a variable one.
        out, inplace, context, backend: as for solve_tridiagonal (inplace
            overwrites rhs).

    Returns:
        The solution, shaped as rhs; device arrays in, a device array out.

    Raises:
        InvalidArgumentError, InvalidTreeError (a parent array that is no tree
        in Hines order), NumericalError (non-finite input or solution).
    """
    named = (("u", u), ("l", l), ("d", d), ("rhs", rhs))
    ctx = get_context(context, backend)
    if _all_device(named):
        shape = tuple(rhs.shape)
        off, nsys, nrows = batch_shape(shape, offsets, "rhs")
        same_shape(named[:3], shape)
        p = _hines_parent(parent, shape, nsys, nrows, offsets)
        target = _device_target(rhs, out, inplace)
        _core.device_solve(ctx._c, True, off, p, for_core(u), for_core(l), for_core(d),
                           for_core(rhs), for_core(target))
        return target
    r = host_float(rhs, "rhs")
    off, nsys, nrows = batch_shape(r.shape, offsets, "rhs")
    coefs = [host_float(x, n, r.dtype) for n, x in named[:3]]
    same_shape(list(zip(("u", "l", "d"), coefs)), r.shape)
    coefs = [np.ascontiguousarray(x) for x in coefs]
    p = _hines_parent(parent, r.shape, nsys, nrows, offsets)
    x, copy_out = _target(r, rhs, out, inplace, "rhs")
    _core.hines_solve(ctx._c, off, p, coefs[0], coefs[1], coefs[2], x)
    if copy_out:
        out[...] = x
        return out
    return x


def tridiagonal_residual(a: Any, b: Any, c: Any, x: Any, d: Any, *,
                         offsets: Any = None) -> Tuple[float, int]:
    """LAPACK-style residual ratio ||d - A x|| / (||A|| ||x|| eps) of the worst
    system, and that system's index: well under 30 for a correct solve."""
    xx = host_float(x, "x")
    off, _, _ = batch_shape(xx.shape, offsets, "x")
    arrs = [np.ascontiguousarray(host_float(v, n, xx.dtype)) for n, v in
            (("a", a), ("b", b), ("c", c), ("x", xx), ("d", d))]
    same_shape(list(zip("abcxd", arrs)), xx.shape)
    return _core.tridiag_residual(off, *arrs)


def hines_residual(parent: Any, u: Any, l: Any, d: Any, x: Any, rhs: Any, *,
                   offsets: Any = None) -> Tuple[float, int]:
    """The residual ratio of Hines systems (see tridiagonal_residual)."""
    xx = host_float(x, "x")
    off, nsys, nrows = batch_shape(xx.shape, offsets, "x")
    arrs = [np.ascontiguousarray(host_float(v, n, xx.dtype)) for n, v in
            (("u", u), ("l", l), ("d", d), ("x", xx), ("rhs", rhs))]
    same_shape(list(zip(("u", "l", "d", "x", "rhs"), arrs)), xx.shape)
    p = _hines_parent(parent, xx.shape, nsys, nrows, offsets)
    return _core.hines_residual(off, p, *arrs)
