"""_plan.py: Plan, one batch shape solved many times: set arrays (host or GPU), solve, read the solution, and what the plan chose (describe, info, layout, buffers)."""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import numpy as np

from . import _core
from ._arrays import FLOATS, for_core, is_device, offsets_array, to_host_index
from ._context import Context, get_context
from ._args import integer, plan_options
from ._errors import invalid

__all__ = ["Plan"]

_TRIDIAG = ("a", "b", "c", "rhs")
_HINES = ("u", "l", "d", "rhs")


def _dtype(dtype: Any) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise invalid(f"dtype: {dtype!r}, expected float64 or float32") from None
    if dt not in FLOATS:
        raise invalid(f"dtype: {dt}, expected float64 or float32")
    return dt


class Plan:
    """A batch shape made once and solved every time step; data stays on the
    backend between calls.

    Make one with Plan.tridiagonal or Plan.hines. Each step: ``set`` what
    changed (host arrays, or GPU arrays on the CUDA backend), ``solve``, read
    ``solution()``. A solve overwrites the right-hand side (and a Hines
    plan's d), so set them again before the next one.

    Options (keywords of the constructors, names as in the C API and CLI):
    layout ("auto", "flat", "full-interleaved", "block-interleaved",
    "block-shared"), block_size, padding ("auto", "compute", "skip"),
    strategy ("auto", "per-system", "branch-level", "fine-tree",
    "cooperative", "cell-group"; HINESBATCH_STRATEGY overrides "auto"),
    stream (a cudaStream_t or cl_command_queue as an integer), group_size,
    cell_chain (cell-group: the most nodes of a run one work-item
    eliminates between barriers; 0: the library's rule), reroot,
    split_branches, shared_couplings (Hines plans of one tree: ``u`` and
    ``l`` are one system's n values, used by every system), auto_estimate
    (GPUs: True keeps AUTO's modelled choice; False, the default, times the
    strategies the model cannot tell apart while the plan is made;
    HINESBATCH_AUTO_ESTIMATE overrides).
    """

    def __init__(self, core: Any, dtype: np.dtype, shape: Tuple[int, ...], ctx: Context):
        self._p = core
        self._ctx = ctx
        self.dtype: np.dtype = dtype
        #: Shape of the arrays set and returned: (nsys, n) or (nrows,).
        self.shape: Tuple[int, ...] = shape

    @classmethod
    def tridiagonal(cls, nsys: Optional[int] = None, n: Optional[int] = None, *,
                    offsets: Any = None, dtype: Any = np.float64,
                    context: Optional[Context] = None, backend: Optional[str] = None,
                    **options: Any) -> "Plan":
        """A tridiagonal plan: nsys systems of n rows, or flat ``offsets``."""
        dt = _dtype(dtype)
        ctx = get_context(context, backend)
        if offsets is not None:
            if nsys is not None or n is not None:
                raise invalid("give nsys and n, or offsets")
            off = offsets_array(offsets)
            core = _core.Plan.tridiag(ctx._c, dt.name, off, plan_options(options))
            return cls(core, dt, (core.nrows,), ctx)
        if nsys is None or n is None:
            raise invalid("give nsys and n, or offsets")
        nsys, n = integer(nsys, "nsys"), integer(n, "n")
        core = _core.Plan.tridiag_uniform(ctx._c, dt.name, nsys, n, plan_options(options))
        return cls(core, dt, (nsys, n), ctx)

    @classmethod
    def hines(cls, parent: Any, nsys: Optional[int] = None, *, offsets: Any = None,
              dtype: Any = np.float64, context: Optional[Context] = None,
              backend: Optional[str] = None, **options: Any) -> "Plan":
        """A Hines plan: nsys copies of one tree (parent of n entries), or
        flat ``offsets`` with a flat parent array of local indices."""
        dt = _dtype(dtype)
        ctx = get_context(context, backend)
        p = to_host_index(parent, "parent")
        if offsets is not None:
            if nsys is not None:
                raise invalid("give nsys or offsets")
            core = _core.Plan.hines(ctx._c, dt.name, offsets_array(offsets), p,
                                    plan_options(options))
            return cls(core, dt, (core.nrows,), ctx)
        if nsys is None:
            raise invalid("give nsys (copies of the tree) or offsets")
        if p.ndim != 1:
            raise invalid(f"parent: shape {p.shape}, expected one tree (1-D)")
        nsys = integer(nsys, "nsys")
        core = _core.Plan.hines_uniform(ctx._c, dt.name, nsys, p, plan_options(options))
        return cls(core, dt, (nsys, p.shape[0]), ctx)

    @property
    def nsys(self) -> int:
        return self._p.nsys

    @property
    def nrows(self) -> int:
        return self._p.nrows

    @property
    def is_hines(self) -> bool:
        return self._p.is_hines

    @property
    def arrays(self) -> Tuple[str, ...]:
        """Names of the arrays to set: a, b, c, rhs or u, l, d, rhs."""
        return _HINES if self.is_hines else _TRIDIAG

    def set(self, **arrays: Any) -> "Plan":
        """Copy arrays into the plan, e.g. ``plan.set(b=b, rhs=r)``: numpy
        arrays of the plan's dtype and shape, or GPU arrays on the CUDA
        backend (copied on the device; the plan must be flat). Non-finite
        host values raise NumericalError and leave the plan as it was."""
        for name, x in arrays.items():
            if name not in self.arrays:
                raise invalid(f"{name}: no array of this plan (it has {', '.join(self.arrays)})")
            if is_device(x):
                _core.plan_set_device(self._p, name, for_core(x))
                continue
            h = np.asarray(x)
            if h.dtype != self.dtype:
                raise invalid(f"{name}: dtype {h.dtype}, the plan's is {self.dtype}")
            if name in ("u", "l") and self._p.shared_couplings:
                # One system's couplings, used by every system.
                n = self._p.max_rows
                if h.shape != (n,):
                    raise invalid(f"{name}: shape {h.shape}, expected ({n},): the plan shares "
                                  "one system's couplings")
            elif h.shape != self.shape and h.shape != (self.nrows,):
                raise invalid(f"{name}: shape {h.shape}, expected {self.shape}")
            self._p.set(name, np.ascontiguousarray(h))
        return self

    def solve(self) -> "Plan":
        """Solve in place on the backend (asynchronous on GPU backends)."""
        self._p.solve()
        return self

    def synchronize(self) -> None:
        """Wait for the plan's queued work."""
        self._p.synchronize()

    def solution(self, out: Any = None) -> Any:
        """The solution: a new numpy array of the plan's shape, or written into
        ``out`` (numpy, or a GPU array on the CUDA backend). A non-finite
        solution raises NumericalError naming the system."""
        if out is not None and is_device(out):
            _core.plan_solution_device(self._p, for_core(out))
            return out
        x = np.empty(self.shape, dtype=self.dtype)
        self._p.solution(x)
        if out is not None:
            if not isinstance(out, np.ndarray) or out.dtype != self.dtype or out.size != x.size:
                raise invalid(f"out: expected a numpy array of {x.size} {self.dtype}")
            out.reshape(x.shape)[...] = x
            return out
        return x

    def describe(self) -> str:
        """Layout, padding, strategy and backend in one line."""
        return self._p.describe()

    def info(self) -> Dict[str, Union[str, int, bool]]:
        """What the plan chose, as values (hb_plan_get_info)."""
        return self._p.info()

    def layout(self) -> Dict[str, Union[str, int, bool]]:
        """Where the plan keeps its data: element i of system s at
        bases[s] + i * stride of arrays of ``length`` elements."""
        return self._p.layout()

    def system_bases(self) -> np.ndarray:
        """Per-system base offsets of the layout formula (nsys entries)."""
        return self._p.system_bases()

    def index(self, s: int, i: int) -> int:
        """Layout index of row i of system s."""
        return self._p.index(integer(s, "s"), integer(i, "i"))

    def buffer(self, which: str) -> Any:
        """The plan's own array (no copy) in its layout: a numpy array on the
        host backends; on CUDA a CuPy array where CuPy is installed, else a
        DLPack array object (``torch.from_dlpack`` takes either). It keeps
        the plan alive. Asking for d or rhs counts as setting it."""
        if self.info()["backend"] == "cuda":
            try:
                import cupy
            except ImportError:
                cupy = None
            if cupy is not None:  # any nanobind version: CuPy wraps the pointer
                ptr = self._p.handle(which)
                n = int(self.layout()["length"])
                mem = cupy.cuda.UnownedMemory(ptr, n * self.dtype.itemsize, self,
                                              self._p.device())
                return cupy.ndarray((n,), self.dtype, cupy.cuda.MemoryPointer(mem, 0))
        buf = self._p.buffer(which)
        if type(buf).__name__ == "PyCapsule":  # older nanobind: a bare DLPack capsule
            import cupy
            return cupy.fromDlpack(buf)
        return buf

    def handle(self, which: str) -> int:
        """The backend's handle of a plan array as an integer: host or device
        pointer, or cl_mem on OpenCL."""
        return self._p.handle(which)

    def __repr__(self) -> str:
        return f"hinesbatch.Plan({self.describe()!r})"
