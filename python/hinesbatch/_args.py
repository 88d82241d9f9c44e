"""_args.py: the Python layer's checks of scalar arguments (integers, flags, numbers, option dicts): a bad value raises InvalidArgumentError naming the argument before the binding sees it."""
from __future__ import annotations

import math
import operator
from typing import Any, Dict

import numpy as np

from ._errors import invalid

INT32 = (-(2 ** 31), 2 ** 31 - 1)
INT64 = (-(2 ** 63), 2 ** 63 - 1)
UINT64 = (0, 2 ** 64 - 1)


def _show(x: Any) -> str:
    """x for a message: a huge int by its size (str() of one past 4300 digits
    raises), anything else by repr, cut short."""
    if isinstance(x, int) and x.bit_length() > 64:
        return f"an integer of {x.bit_length()} bits"
    try:
        r = repr(x)
    except Exception:  # a hostile __repr__
        r = f"a {type(x).__name__}"
    return r if len(r) <= 60 else r[:57] + "..."


def _bound(v: int) -> str:
    for p in (31, 32, 63, 64):
        if v == 2 ** p - 1:
            return f"2^{p}-1"
        if v == -(2 ** p):
            return f"-2^{p}"
    return str(v)


def integer(x: Any, name: str, lo: int = INT64[0], hi: int = INT64[1]) -> int:
    """x as an int in [lo, hi]: Python and numpy integers, and floats of an
    exact integral value (2.0); never a bool, a fraction (1.5, truncated by
    int()), NaN, a string or a value the C argument cannot hold."""
    if isinstance(x, (bool, np.bool_)):
        raise invalid(f"{name}: {x!r} is a bool, expected an integer")
    if isinstance(x, (float, np.floating)):
        f = float(x)
        if not math.isfinite(f) or f != math.floor(f):
            raise invalid(f"{name}: {_show(x)} is not an integer")
        v = int(f)
    else:
        try:
            v = operator.index(x)  # int, numpy integers, 0-d integer arrays
        except TypeError:
            raise invalid(f"{name}: a value of the wrong type ({type(x).__name__}: {_show(x)}), "
                          "expected an integer") from None
    if not lo <= v <= hi:
        raise invalid(f"{name}: {_show(v)} is outside [{_bound(lo)}, {_bound(hi)}]")
    return v


def flag(x: Any, name: str) -> bool:
    """x as a bool: True/False (numpy's too) or the integers 0 and 1."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)) and int(x) in (0, 1):
        return bool(x)
    raise invalid(f"{name}: {_show(x)} is not True or False")


def real(x: Any, name: str) -> float:
    """x as a float (the library checks its range and finiteness): Python and
    numpy numbers; not a string, a bool or an int too large for a double."""
    if isinstance(x, (str, bytes, bool, np.bool_)):
        raise invalid(f"{name}: a value of the wrong type ({type(x).__name__}: {_show(x)}), "
                      "expected a number")
    try:
        return float(x)
    except OverflowError:
        raise invalid(f"{name}: {_show(x)} is too large for a double") from None
    except (TypeError, ValueError):
        raise invalid(f"{name}: a value of the wrong type ({type(x).__name__}: {_show(x)}), "
                      "expected a number") from None


# Plan options (hb_plan_options) and simulation parameters (hb_sim_params) by
# the C type of their field; the binding converts them without these checks.
_PLAN_INTS = {"block_size": INT32, "group_size": INT32, "stream": (0, 2 ** 64 - 1)}
_PLAN_FLAGS = ("reroot", "split_branches", "shared_couplings", "auto_estimate")
_SIM_INTS = {"max_spikes": INT64, "record_chunk": INT64, "epoch_steps": INT64}
_SIM_FLAGS = ("hh_everywhere", "timing")
_SIM_REALS = ("dt", "celsius", "v_init", "gnabar", "gkbar", "gl", "el", "ena", "ek", "threshold")


def plan_options(options: Dict[str, Any], what: str = "plan option") -> Dict[str, Any]:
    """A copy of plan options with integers and flags checked; names and
    unknown keys are the binding's to judge."""
    out = dict(options)
    for k, v in out.items():
        if v is None:
            continue
        if k in _PLAN_INTS:
            out[k] = integer(v, f"{what} {k}", *_PLAN_INTS[k])
        elif k in _PLAN_FLAGS:
            out[k] = flag(v, f"{what} {k}")
    return out


def sim_params(params: Dict[str, Any]) -> Dict[str, Any]:
    """A copy of simulation parameters with integers, flags and numbers checked."""
    out = dict(params)
    for k, v in out.items():
        if v is None:
            continue
        if k in _SIM_INTS:
            out[k] = integer(v, k, *_SIM_INTS[k])
        elif k in _SIM_FLAGS:
            out[k] = flag(v, k)
        elif k in _SIM_REALS:
            out[k] = real(v, k)
    return out
