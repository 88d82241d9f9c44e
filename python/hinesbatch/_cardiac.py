"""_cardiac.py: Cardiac, a batch of cardiac cells or 1-D fibers of a model of the cardiac catalogue (Myokit/CellML files translated at build time; docs/cardiac.md), and cardiac_models()."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _core
from ._context import Context, get_context
from ._args import integer, real
from ._errors import invalid

__all__ = ["Cardiac", "cardiac_models"]


def cardiac_models() -> List[Dict[str, Any]]:
    """The catalogue: per model its name, states and parameters as (name, value) pairs (the
    file's initial values and constants), the stimulus amplitude parameter and the file's
    own protocol (start, duration, period in ms; duration 0: none)."""
    return _core.cardiac_models()


class Cardiac:
    """ncells cells of one model, time step dt (ms), float64 or float32 on a backend.

    >>> c = Cardiac("beeler_reuter_1977", 100, dt=0.01, backend="serial")
    >>> c.set_protocol(start=10, duration=2, period=1000)
    >>> c.record([0, 99], every=10)
    >>> c.run(5000)            # steps
    >>> v = c.recording()      # rows x (cells x states)
    """

    def __init__(self, model: str, ncells: int, dt: float = 0.01, dtype: Any = np.float64,
                 context: Optional[Context] = None, backend: Optional[str] = None):
        name = np.dtype(dtype).name
        if name not in ("float64", "float32"):
            raise invalid(f"dtype: {name}, expected float64 or float32")
        self._ctx = get_context(context, backend)
        ncells, dt = integer(ncells, "ncells"), real(dt, "dt")
        self._c = _core.Cardiac.create(self._ctx._c, str(model), ncells, name, dt)
        self.model, self.ncells, self.dt, self.dtype = str(model), ncells, dt, name
        self._states: List[str] = []
        self._every = 1

    def set_param(self, name: str, value: Union[float, Sequence[float]]) -> None:
        """Parameter `name` of every cell (a number) or per cell (ncells values)."""
        if np.ndim(value) == 0:
            self._c.set_param_all(name, real(value, "value"))
        else:
            self._c.set_param(name, np.ascontiguousarray(value, dtype=np.float64))

    def set_state(self, name: str, values: Sequence[float]) -> None:
        self._c.set_state(name, np.ascontiguousarray(values, dtype=np.float64))

    def state(self, name: str) -> np.ndarray:
        """State `name` of every cell now (float64)."""
        return self._c.get_state(name)

    def set_protocol(self, start: float, duration: float, period: float = 0.0,
                     level: float = 1.0) -> None:
        """Myokit's periodic pace (ms; period 0: once); times are whole numbers of steps."""
        self._c.set_protocol(real(level, "level"), real(start, "start"),
                             real(duration, "duration"), real(period, "period"))

    def set_fiber(self, nnodes: int, sigma: float = 1.2, chi: float = 1400.0, cm: float = 1.0,
                  dx: float = 0.01) -> None:
        """Couples the cells into fibers of nnodes nodes dx cm apart (the monodomain cable
        equation; sigma mS/cm, chi 1/cm, cm uF/cm2)."""
        self._c.set_fiber(integer(nnodes, "nnodes"), real(sigma, "sigma"), real(chi, "chi"),
                          real(cm, "cm"), real(dx, "dx"))

    def record(self, cells: Sequence[int], states: Optional[Sequence[str]] = None,
               every: int = 1) -> None:
        """Records the states (default: the membrane potential) of these cells every `every`
        steps from now on."""
        if states is None:
            states = [cardiac_models_by_name()[self.model]["states"][0][0]]
        every = integer(every, "every")
        ids = [integer(c, "cells") for c in cells]
        self._c.record(ids, list(states), every)
        self._states, self._every = list(states), every

    def run(self, nsteps: int) -> None:
        self._c.run(integer(nsteps, "nsteps"))

    @property
    def steps(self) -> int:
        return self._c.steps()

    def recording(self) -> np.ndarray:
        """Recorded rows so far: rows x (cells x states), cell by cell, state by state."""
        return self._c.recording()


def cardiac_models_by_name() -> Dict[str, Dict[str, Any]]:
    return {m["name"]: m for m in cardiac_models()}
