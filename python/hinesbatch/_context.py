"""_context.py: Context (a backend and device), the compiled backends and their devices, and the default contexts the solvers use."""
from __future__ import annotations

import threading
from typing import Dict, List, Optional, Union

from . import _core
from ._args import INT32, integer

__all__ = ["Context", "backends", "devices", "get_context"]

BACKENDS = ("serial", "openmp", "opencl", "cuda")


class Context:
    """A backend opened on a device: what plans, solves and simulations run on.

    Args:
        backend: "auto" (HINESBATCH_BACKEND, else cuda, an OpenCL GPU, openmp,
            serial), "serial", "openmp", "opencl" or "cuda" (any case). A named
            backend that is not compiled in or has no device raises
            BackendUnavailableError, never falls back.
        device: GPU device index (None: HINESBATCH_DEVICE, else the default).
        platform: OpenCL platform index (None: HINESBATCH_OPENCL_PLATFORM).
        cuda_stream: a cudaStream_t as an integer (e.g. ``cupy.cuda.Stream().ptr``)
            that the context's work is queued on, in order with the caller's.

    Plans and simulations keep their context's backend alive, so a Context
    may be dropped before them.
    """

    def __init__(self, backend: str = "auto", device: Optional[int] = None,
                 platform: Optional[int] = None, cuda_stream: Optional[int] = None):
        self._c = _core.Context(str(backend),
                                -1 if device is None else integer(device, "device", *INT32),
                                -1 if platform is None else integer(platform, "platform", *INT32),
                                0 if cuda_stream is None
                                else integer(cuda_stream, "cuda_stream", 0, 2 ** 64 - 1))

    @property
    def backend(self) -> str:
        """The backend opened: "serial", "openmp", "opencl" or "cuda"."""
        return self._c.backend

    def describe(self) -> str:
        """Backend and device in one line, e.g. "openmp on host CPU (2 threads)"."""
        return self._c.describe()

    def options(self) -> Dict[str, Union[str, int]]:
        """What the context runs on: backend, device, and the CUDA stream or
        OpenCL handles (integers, borrowed) to share with other libraries."""
        return self._c.options()

    def copy_time(self, nbytes: int, reps: int = 10) -> float:
        """Median milliseconds of a device-to-device copy of nbytes."""
        return self._c.copy_time(integer(nbytes, "nbytes", 0, 2 ** 63 - 1),
                                 integer(reps, "reps", *INT32))

    def __repr__(self) -> str:
        return f"hinesbatch.Context({self.describe()!r})"


def backends() -> List[str]:
    """The backends compiled into this build, e.g. ["serial", "openmp", "opencl"]."""
    return [b for b in BACKENDS if _core.backend_compiled(b)]


def devices(backend: str, platform: Optional[int] = None) -> List[str]:
    """Names of the devices a backend can open, numbered as Context(device=) numbers them."""
    return _core.device_names(str(backend),
                              -1 if platform is None else integer(platform, "platform", *INT32))


_defaults: Dict[str, Context] = {}
_lock = threading.Lock()


def get_context(context: Optional[Context] = None, backend: Optional[str] = None) -> Context:
    """The context a call runs on: `context` if given, else one shared context
    per backend name ("auto" when backend is None), opened on first use."""
    if context is not None:
        if not isinstance(context, Context):
            from ._errors import invalid
            raise invalid(f"context: expected a hinesbatch.Context, got {type(context).__name__}")
        if backend is not None:
            from ._errors import invalid
            raise invalid("give context or backend, not both")
        return context
    key = "auto" if backend is None else str(backend).lower()
    with _lock:
        ctx = _defaults.get(key)
        if ctx is None:
            ctx = Context(key)
            _defaults[key] = ctx
        return ctx
