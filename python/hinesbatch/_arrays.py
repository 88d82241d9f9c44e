"""_arrays.py: how the Python layer tells host arrays from GPU arrays and checks shapes, dtypes and contiguity before the library sees them."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from ._errors import invalid

FLOATS = (np.dtype(np.float64), np.dtype(np.float32))
_DLPACK_CPU = 1


def is_device(x: Any) -> bool:
    """True for an array on a GPU (CuPy, PyTorch CUDA, JAX on GPU, Numba...)."""
    if isinstance(x, np.ndarray):
        return False
    if hasattr(x, "__cuda_array_interface__"):
        return True
    dev = getattr(x, "__dlpack_device__", None)
    if dev is not None:
        try:
            return int(dev()[0]) != _DLPACK_CPU
        except Exception:  # an object that cannot say: treat as host
            return False
    return False


def for_core(x: Any) -> Any:
    """A device array the binding takes (DLPack): objects with only
    __cuda_array_interface__ (Numba) go through CuPy, without a copy."""
    if hasattr(x, "__dlpack__"):
        return x
    import cupy  # only objects with __cuda_array_interface__ alone get here
    return cupy.asarray(x)


def host_float(x: Any, name: str, dtype: Optional[np.dtype] = None) -> np.ndarray:
    """x as a numpy array of float32/float64 (lists become float64); with
    dtype, x must have it (float32 and float64 are never mixed silently)."""
    if not isinstance(x, np.ndarray):
        try:
            x = np.asarray(x)
        except Exception as e:
            raise invalid(f"{name}: not an array ({type(x).__name__}): {e}") from None
        if x.dtype.kind in "iub":
            x = x.astype(np.float64)
    if x.dtype not in FLOATS:
        raise invalid(f"{name}: dtype {x.dtype}, expected float64 or float32")
    if dtype is not None and x.dtype != dtype:
        raise invalid(f"{name}: dtype {x.dtype} differs from the right-hand side's {dtype}")
    return x


def host_index(x: Any, name: str) -> np.ndarray:
    """An integer array as int32 (parent indices), checking the range."""
    x = np.asarray(x)
    if x.dtype.kind not in "iu":
        raise invalid(f"{name}: dtype {x.dtype}, expected an integer type")
    if x.size and (x.min() < np.iinfo(np.int32).min or x.max() > np.iinfo(np.int32).max):
        raise invalid(f"{name}: values outside int32")
    return np.ascontiguousarray(x, dtype=np.int32)


def offsets_array(offsets: Any) -> np.ndarray:
    """Offsets as int64 (nsys + 1 entries); the library checks their values."""
    o = np.asarray(offsets)
    if o.ndim != 1 or o.size < 1:
        raise invalid(f"offsets: a 1-D array of nsys + 1 entries, got shape {o.shape}")
    if o.dtype.kind not in "iu":
        raise invalid(f"offsets: dtype {o.dtype}, expected an integer type")
    return np.ascontiguousarray(o, dtype=np.int64)


def batch_shape(rhs_shape: Tuple[int, ...], offsets: Optional[np.ndarray],
                name: str) -> Tuple[np.ndarray, int, int]:
    """(offsets, nsys, nrows) of a batch: 2-D (systems x rows) or 1-D (one
    system) without offsets; 1-D flat rows with offsets."""
    if offsets is None:
        if len(rhs_shape) == 2:
            nsys, n = rhs_shape
        elif len(rhs_shape) == 1:
            nsys, n = 1, rhs_shape[0]
        else:
            raise invalid(f"{name}: shape {rhs_shape}; a uniform batch is 2-D (systems x rows), "
                          "a variable one 1-D with offsets")
        if nsys > 0 and n == 0:  # else the library blames offsets the caller never gave
            raise invalid(f"{name}: shape {rhs_shape}: systems of 0 rows (a system has at "
                          "least 1)")
        return np.arange(nsys + 1, dtype=np.int64) * n, nsys, nsys * n
    if len(rhs_shape) != 1:
        raise invalid(f"{name}: shape {rhs_shape}; with offsets, arrays are 1-D (flat rows)")
    o = offsets_array(offsets)
    return o, o.size - 1, int(rhs_shape[0])


def same_shape(arrays: Sequence[Tuple[str, Any]], shape: Tuple[int, ...]) -> None:
    """Every (name, array) has the given shape."""
    for name, x in arrays:
        s = tuple(getattr(x, "shape", ()))
        if s != tuple(shape):
            raise invalid(f"{name}: shape {s}, expected {tuple(shape)}")


def device_empty_like(x: Any) -> Any:
    """A new device array like x, made by x's own library (CuPy, PyTorch),
    else by CuPy."""
    mod = type(x).__module__.split(".")[0]
    if mod == "torch":
        import torch
        return torch.empty_like(x)
    import cupy
    if not isinstance(x, cupy.ndarray):
        x = cupy.from_dlpack(x) if hasattr(x, "__dlpack__") else cupy.asarray(x)
    return cupy.empty_like(x)


def to_host_index(x: Any, name: str) -> np.ndarray:
    """Parent indices given on the device (CuPy, PyTorch) copied to the host."""
    if is_device(x):
        if hasattr(x, "get"):
            x = x.get()
        elif hasattr(x, "cpu"):
            x = x.cpu().numpy()
        else:
            import cupy
            x = cupy.asnumpy(cupy.asarray(x))
    return host_index(x, name)
