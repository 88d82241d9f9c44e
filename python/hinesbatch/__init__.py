"""hinesbatch: batched Hines and tridiagonal solvers (CUDA, OpenCL, OpenMP, serial) and neuron simulation, from Python.

Solvers take numpy arrays (2-D: systems x rows; flat with offsets for
variable batches) or GPU arrays (CuPy, PyTorch, JAX through DLPack or
__cuda_array_interface__) and keep float32/float64. Errors raise
hinesbatch.Error subclasses carrying the library's status code and message.
See docs/python.md.
"""
from __future__ import annotations

from . import _core
from ._errors import (BackendError, BackendUnavailableError, BusyError, Error, FileError,
                      InvalidArgumentError, InvalidTreeError, NumericalError, OutOfMemoryError,
                      ParseError)
from ._context import Context, backends, devices, get_context
from ._solve import hines_residual, solve_hines, solve_tridiagonal, tridiagonal_residual
from ._plan import Plan
from ._morph import Cell, Morphology, batch, load_swc, tree_level_counts, tree_order, tree_stats
from ._sim import Simulation, mechanisms
from ._net import Network
from ._cardiac import Cardiac, cardiac_models


def version() -> str:
    """The C library's version, "MAJOR.MINOR.PATCH"."""
    v = _core.version()
    return f"{v // 10000}.{v // 100 % 100}.{v % 100}"


__version__ = version()
#: Whether GPU arrays can be solved (the build has the CUDA backend).
cuda_interop: bool = bool(_core.cuda_interop)

__all__ = [
    "Error", "InvalidArgumentError", "InvalidTreeError", "NumericalError", "OutOfMemoryError",
    "BackendUnavailableError", "BackendError", "FileError", "ParseError", "BusyError",
    "Context", "backends", "devices", "get_context",
    "solve_tridiagonal", "solve_hines", "tridiagonal_residual", "hines_residual",
    "Plan", "Morphology", "Cell", "load_swc", "tree_stats", "tree_level_counts", "tree_order",
    "batch", "Simulation", "mechanisms", "Network", "Cardiac", "cardiac_models", "version", "cuda_interop",
]
