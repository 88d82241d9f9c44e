"""_sim.py: Simulation of a batch of neurons (mechanisms from the NMODL catalogue by region and distance, ions, synapses and spike trains, clamps, recordings, spikes) and its matplotlib plot, imported only when plotting."""
from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._context import Context, get_context
from ._args import INT32, _show, flag, integer, plan_options, real, sim_params
from ._errors import invalid
from ._morph import Cell

__all__ = ["Simulation", "mechanisms"]

# SWC types by name, for regions.
_TYPES = {"soma": 1, "axon": 2, "basal": 3, "dend": 3, "apical": 4}


def mechanisms() -> list:
    """The engine's catalogue: one dict per mechanism (name, kind "density"
    or "point", parameters with their defaults, states, currents (what a
    probe "MECH.I" records: ion currents it writes, then nonspecific),
    net_receive)."""
    return _core.mechanisms()


def _where(where: Optional[Dict[str, Any]]) -> Tuple[int, int, float, float]:
    """A region dict (cell, types: SWC type numbers or names, dist: (lo, hi)
    um) as the binding's (cell, type bits, lo, hi)."""
    if where is not None and not isinstance(where, dict):
        raise invalid(f"where: a dict of cell, types, dist, got {type(where).__name__}")
    w = dict(where or {})
    cell = integer(w.pop("cell", -1), "where cell")
    types = w.pop("types", None)
    dist = w.pop("dist", (0.0, float("inf")))
    if isinstance(dist, (str, bytes)) or np.ndim(dist) != 1 or len(dist) != 2:
        raise invalid(f"where dist: {_show(dist)}, expected (lo, hi) um")
    lo, hi = real(dist[0], "where dist lo"), real(dist[1], "where dist hi")
    if w:
        raise invalid(f"where: unknown keys {sorted(w)} (cell, types, dist)")
    bits = 0
    if types is not None:
        for t in [types] if isinstance(types, (str, bytes)) or np.ndim(types) == 0 else types:
            k = _TYPES.get(t) if isinstance(t, str) else _type_number(t)
            if k is None or not 0 <= k < 32:
                raise invalid(f"where: SWC type {_show(t)} (a number 0..31 or one of {sorted(_TYPES)})")
            bits |= 1 << k
    return cell, bits, lo, hi


def _type_number(t: Any) -> Optional[int]:
    """An SWC type given as a number: an integer (1.5 is none), else None."""
    try:
        return integer(t, "where types", *INT32)
    except ValueError:
        return None


class Simulation:
    """A batch of cells stepped together on the backend (hinesbatch_sim.h).

    Args:
        cells: a list of Cell (the same Cell several times, or all one Cell,
            shares its tree); or one Cell with ``ncells`` copies.
        ncells: copies of a single cell.
        context, backend: where to run (see solve_tridiagonal).
        dtype: "float64" or "float32".
        plan: plan options (layout, strategy, ...) as a dict.
        Parameters (NEURON's units and defaults): dt (ms, 0.025), celsius
        (6.3), v_init (mV, -65), gnabar (0.12), gkbar (0.036), gl (0.0003)
        (S/cm^2), el (-54.3), ena (50), ek (-77) (mV), hh_everywhere (False:
        HH in the soma only), threshold (mV, -20), max_spikes (256),
        record_chunk (1000 steps), timing (False); engine ("auto",
        "stages" or "cells": each cell on its own for many steps, on a GPU on
        chip; describe() names the engine that runs), epoch_steps (0: the
        most steps per on-chip launch, beyond record_chunk).

    With no mechanism inserted the parameters above make the default model
    (pas everywhere, hh in the soma or everywhere). Otherwise the model is
    built from the catalogue (mechanisms()): insert, set_param, set_ion,
    add_point, add_events, add_spike_train; a `where` is a dict of cell,
    types (SWC numbers or "soma", "axon", "basal", "apical") and dist (lo,
    hi) um of path distance. Cells must have cable gm = 0 (leaks are pas).
    Build the model and add clamps and recordings before the first run.
    """

    def __init__(self, cells: Union[Cell, Sequence[Cell]], ncells: Optional[int] = None, *,
                 context: Optional[Context] = None, backend: Optional[str] = None,
                 dtype: Any = "float64", plan: Optional[Dict[str, Any]] = None,
                 **params: Any):
        if isinstance(cells, Cell):
            n = 1 if ncells is None else integer(ncells, "ncells")
            if n < 1:  # else an empty list, which the library reports as a NULL cells array
                raise invalid(f"ncells = {n}, must be >= 1")
            cells = [cells] * n
        elif ncells is not None:
            raise invalid("ncells: only with one cell")
        cells = list(cells)
        for i, c in enumerate(cells):
            if not isinstance(c, Cell):
                raise invalid(f"cells[{i}]: expected a hinesbatch.Cell, got {type(c).__name__}")
        self._ctx = get_context(context, backend)
        p = sim_params(params)
        p["dtype"] = np.dtype(dtype).name
        if plan is not None and not isinstance(plan, dict):
            raise invalid(f"plan: a dict of plan options, got {type(plan).__name__}")
        p["plan"] = plan_options(plan or {})
        self.dt: float = p["dt"] if p.get("dt") is not None else 0.025
        self.ncells: int = len(cells)
        self._s = _core.Sim.create(self._ctx._c, [c._c for c in cells], p)
        self._recorded: list = []

    def describe(self) -> str:
        """Plan, batch size and backend in one line."""
        return self._s.describe()

    @property
    def rows(self) -> int:
        """Compartments of the whole batch."""
        return self._s.rows()

    def cell_rows(self, cell: int) -> Tuple[int, int]:
        """(offset, n): the flat rows of a cell."""
        return self._s.cell_rows(integer(cell, "cell"))

    def soma(self, cell: int) -> int:
        """The soma compartment of a cell (local index)."""
        return self._s.soma(integer(cell, "cell"))

    def add_iclamp(self, cell: Union[int, Iterable[int]], amp: float, onset: float = 0.0,
                   dur: float = 1e9, compartment: int = -1) -> "Simulation":
        """A current clamp of amp nA from onset for dur ms on a compartment
        (-1: the soma) of a cell, or of each cell of a list."""
        for c in _cells(cell):
            self._s.add_iclamp(c, integer(compartment, "compartment"), real(onset, "onset"),
                               real(dur, "dur"), real(amp, "amp"))
        return self

    def record(self, cell: Union[int, Iterable[int]]) -> "Simulation":
        """Record the soma voltage of a cell (or of each of a list) every step."""
        for c in _cells(cell):
            self._s.record(c)
            self._recorded.append(c)
        return self

    def set_spike_detector(self, cell: int, compartment: int = -1) -> "Simulation":
        """Move a cell's spike detector (the threshold crossing that spikes()
        and networks count) from its soma to `compartment` (-1: back to the
        soma), e.g. the axon's initial segment; before the first run."""
        self._s.set_spike_detector(integer(cell, "cell"), integer(compartment, "compartment"))
        return self

    def probe(self, cell: int, compartment: int, what: str) -> int:
        """Record `what` at a compartment (-1: the soma) of a cell every step:
        "v" (mV), "MECH.VAR" (a density mechanism's state or PARAMETER, e.g.
        "hh.m", or one of its currents in mA/cm2, e.g. "hh.il", "pas.i",
        "hh.ina": mechanisms()' "currents"), an ion's "iX" (mA/cm2), "Xi",
        "Xo" (mM) or "eX" (mV). A current's sample j is the one the step
        ending at it used (from the values at sample j - 1; sample 0: after
        INITIAL), as NEURON records it; a mechanism's current must be probed
        before the first run or state read. Returns its trace's row in
        traces() (recordings and probes in call order)."""
        return self._s.probe(integer(cell, "cell"), integer(compartment, "compartment"), str(what))

    def probe_point(self, point: int, var: str) -> int:
        """Record a point process's state or PARAMETER (e.g. ExpSyn's "g",
        uS) or current (ExpSyn's "i", nA) every step; returns its trace's row
        in traces()."""
        return self._s.probe_point(integer(point, "point"), str(var))

    def trace_info(self) -> List[Dict[str, Any]]:
        """What each row of traces() holds: cell, compartment, point (-1:
        none), probe (False: record()) and what ("v", "hh.m", "ExpSyn.g")."""
        n = self._s.trace_count()
        keys = ("cell", "compartment", "point", "probe", "what")
        return [dict(zip(keys, self._s.trace_info(r))) for r in range(n)]

    def run(self, tstop: float) -> "Simulation":
        """Advance until t >= tstop - dt/2 (t starts at 0; runs continue)."""
        self._s.run(real(tstop, "tstop"))
        return self

    @property
    def t(self) -> float:
        """Simulated time, ms."""
        return self._s.time()[0]

    @property
    def steps(self) -> int:
        return self._s.time()[1]

    def traces(self) -> Tuple[np.ndarray, np.ndarray]:
        """(cells, v): the recorded cells and their traces, one row per
        record() (soma voltage, mV) or probe (its units) in call order,
        sample j at t = j*dt; trace_info() says what each row is."""
        return self._s.traces()

    def times(self) -> np.ndarray:
        """Sample times of the traces, ms."""
        _, v = self.traces()
        return np.arange(v.shape[1]) * self.dt

    def spikes(self, cell: int) -> np.ndarray:
        """Spike times of a cell (ms; every spike so far)."""
        return self._s.spikes(integer(cell, "cell"))[0]

    def spike_counts(self) -> np.ndarray:
        """Spikes of every cell so far."""
        return np.array([self._s.spikes(c)[1] for c in range(self.ncells)], dtype=np.int64)

    def insert(self, mech: str, where: Optional[Dict[str, Any]] = None,
               **params: float) -> "Simulation":
        """Insert density mechanism mech in the region (every compartment
        when where is None), then set the given parameters there."""
        self._s.insert(mech, *_where(where))
        for k, v in params.items():
            self.set_param(mech, k, v, where)
        return self

    def set_param(self, mech: str, param: str, value: Any,
                  where: Optional[Dict[str, Any]] = None) -> "Simulation":
        """Set a PARAMETER of mech where it is inserted in the region: a
        number, or a profile (a, b, c, k): a + b d + c exp(k d) of the path
        distance d (um)."""
        if isinstance(value, (tuple, list)):
            if len(value) != 4:
                raise invalid("value: a number or a profile (a, b, c, k)")
            a, b, c, k = (real(x, "value") for x in value)
        else:
            a, b, c, k = real(value, "value"), 0.0, 0.0, 0.0
        self._s.set_param(mech, param, a, b, c, k, *_where(where))
        return self

    def set_ion(self, ion: str, e: Optional[float] = None, ci: Optional[float] = None,
                co: Optional[float] = None, where: Optional[Dict[str, Any]] = None,
                nernst: Optional[bool] = None) -> "Simulation":
        """Reversal potential e (mV) and concentrations ci, co (mM) of an ion
        in the region (None: unchanged); nernst: e from the concentrations
        every step, everywhere."""
        nan = float("nan")
        self._s.set_ion(ion, nan if e is None else real(e, "e"), nan if ci is None else real(ci, "ci"),
                        nan if co is None else real(co, "co"), *_where(where))
        if nernst is not None:
            self._s.set_ion_nernst(ion, flag(nernst, "nernst"))
        return self

    def add_point(self, mech: str, cell: int, compartment: int = -1, **params: float) -> int:
        """A point process (ExpSyn, Exp2Syn, ...) on a compartment (-1: the
        soma) of a cell, with parameters; returns its id."""
        pid = self._s.add_point(mech, integer(cell, "cell"), integer(compartment, "compartment"))
        for k, v in params.items():
            self._s.set_point_param(pid, k, real(v, k))
        return pid

    def add_events(self, point: int, times: Iterable[float], weight: float) -> "Simulation":
        """Events of the given weight to a point process at times (ms)."""
        self._s.add_events(integer(point, "point"), [real(t, "times") for t in times],
                           real(weight, "weight"))
        return self

    def add_spike_train(self, point: int, weight: float, start: float = 0.0,
                        stop: float = float("inf"), interval: Optional[float] = None,
                        rate: Optional[float] = None, seed: int = 0) -> "Simulation":
        """A regular (interval ms) or Poisson (rate Hz, seed) spike train of
        events into a point process over [start, stop) ms."""
        if (interval is None) == (rate is None):
            raise invalid("add_spike_train: give interval (regular) or rate (Poisson)")
        self._s.add_spike_train(integer(point, "point"), rate is not None, real(start, "start"),
                                real(stop, "stop"),
                                0.0 if interval is None else real(interval, "interval"),
                                0.0 if rate is None else real(rate, "rate"),
                                integer(seed, "seed", 0, 2 ** 64 - 1), real(weight, "weight"))
        return self

    def set_cm(self, cm: float, where: Optional[Dict[str, Any]] = None) -> "Simulation":
        """Specific membrane capacitance (uF/cm^2) of the region's
        compartments, in place of the cells' cable cm."""
        self._s.set_cm(real(cm, "cm"), *_where(where))
        return self

    def mech_state(self, mech: str, var: str) -> np.ndarray:
        """A state or PARAMETER of a mechanism: per compartment (NaN where
        it is not inserted) for a density mechanism, per point process (in
        id order) for a point process."""
        return self._s.mech_state(mech, var)

    def state(self, which: str = "v") -> np.ndarray:
        """State of every compartment, flat in cell_rows order: v (mV) or the
        HH gates m, h, n."""
        return self._s.state(which)

    def timing(self) -> Dict[str, float]:
        """Wall time of the runs (ms), split by stage when timing=True."""
        return self._s.timing()

    def plot(self, path: Union[str, os.PathLike, None] = None, ax: Any = None,
             max_traces: int = 20, title: Optional[str] = None) -> Any:
        """Plot the recorded traces (and spike raster of all cells) with
        matplotlib, imported here; saves to path when given. Returns the Figure."""
        import matplotlib
        if path is not None and ax is None and "MPLBACKEND" not in os.environ:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        cells, v = self.traces()
        t = np.arange(v.shape[1]) * self.dt
        if ax is None:
            fig, (ax, ax2) = plt.subplots(2, 1, figsize=(8, 6), sharex=True,
                                          gridspec_kw={"height_ratios": [2, 1]})
        else:
            fig, ax2 = ax.figure, None
        for r in range(min(v.shape[0], max_traces)):
            ax.plot(t, v[r], lw=0.8, label=f"cell {cells[r]}")
        ax.set_ylabel("soma V (mV)")
        if 0 < v.shape[0] <= 8:
            ax.legend(fontsize=7, loc="upper right")
        if title:
            ax.set_title(title)
        if ax2 is not None:
            for c in range(self.ncells):
                s = self.spikes(c)
                ax2.plot(s, np.full(s.shape, c), "|", ms=2, color="k")
            ax2.set_ylabel("cell")
            ax2.set_xlabel("t (ms)")
        else:
            ax.set_xlabel("t (ms)")
        fig.tight_layout()
        if path is not None:
            fig.savefig(os.fspath(path), dpi=100)
        return fig

    def __repr__(self) -> str:
        return f"hinesbatch.Simulation({self.describe()!r})"


def _cells(cell: Union[int, Iterable[int]]) -> Iterable[int]:
    if isinstance(cell, (int, float, np.integer, np.floating)):
        return [integer(cell, "cell")]
    return [integer(c, "cell") for c in cell]
