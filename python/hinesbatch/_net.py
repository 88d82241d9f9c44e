"""_net.py: Network of simulations in one process: cells' spikes connected to point processes with a NET_RECEIVE block (ExpSyn, ...) by weight and delay, run in epochs of the smallest delay; each connection's NET_RECEIVE values; the spikes (hinesbatch_net.h; MPI ranks from C: hinesbatch_net_mpi.h)."""
from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._args import integer, real
from ._errors import invalid
from ._sim import Simulation

__all__ = ["Network"]


class Network:
    """Simulations (parts) whose cells are connected by synapses.

    A connection takes the spikes of a cell (its soma's upward crossing of
    the simulation's threshold) to a point process of a part (add_point)
    with a weight and a delay (ms, at least dt). run() advances every part
    in epochs of the smallest delay; within an epoch each part runs on its
    own (several parts: several devices or threads), between epochs each
    spike becomes an event at its connections' targets.

    Args:
        delivery: "step_end" (NEURON's fixed step: an event is due at the end
            of the step in which its source crossed threshold, plus the
            delay) or "spike_time" (at the interpolated crossing plus the
            delay).

    The same spikes come out whatever the split of the cells over parts
    (bit for bit on the CPU backends). Make the parts and connections before
    the first run; every part has the same dt and has not run on its own.
    """

    def __init__(self, delivery: str = "step_end"):
        if delivery not in ("step_end", "spike_time"):
            raise invalid(f"delivery: {delivery!r}, expected 'step_end' or 'spike_time'")
        self._n = _core.Net.create(delivery)
        self._parts: List[Simulation] = []
        self._next_gid = 0

    def add(self, sim: Simulation, gids: Optional[Iterable[int]] = None) -> int:
        """Adds sim as the next part and returns its index. gids: one global
        id per cell, unique over the network (default: the next sim.ncells
        numbers after the largest given so far)."""
        if not isinstance(sim, Simulation):
            raise invalid(f"sim: expected a hinesbatch.Simulation, got {type(sim).__name__}")
        if gids is None:
            g = list(range(self._next_gid, self._next_gid + sim.ncells))
        else:
            g = [integer(x, "gids", 0) for x in gids]
        part = self._n.add_part(sim._s, g)
        self._parts.append(sim)
        if g:
            self._next_gid = max(self._next_gid, max(g) + 1)
        return part

    def _part(self, part: Union[int, Simulation]) -> int:
        if isinstance(part, Simulation):
            for i, s in enumerate(self._parts):
                if s is part:
                    return i
            raise invalid("part: this Simulation is not a part of the network (add it first)")
        return integer(part, "part", 0, 2 ** 31 - 1)

    def connect(self, src: int, part: Union[int, Simulation], point: int, weight: float,
                delay: float) -> int:
        """Connects the cell of global id src to point process `point` (an
        id from add_point) of `part` (its index or the Simulation) and
        returns the connection's index (0, 1, ... in the order made)."""
        return self._n.connect(integer(src, "src", 0), self._part(part),
                               integer(point, "point", 0), real(weight, "weight"),
                               real(delay, "delay"))

    @property
    def connections(self) -> int:
        """Connections made so far."""
        return self._n.connection_count()

    def values(self, conn: int) -> np.ndarray:
        """The values the point's NET_RECEIVE keeps for connection conn: its
        arguments after the weight (NEURON's NetCon weight[1], ...); empty
        for a mechanism that keeps none (ExpSyn). Before the first run as
        set, after it as they are now."""
        return self._n.get_values(integer(conn, "conn", 0))

    def set_values(self, conn: int, values: Sequence[float]) -> "Network":
        """Sets the first len(values) of them before the first run (the rest
        start at 0); NET_RECEIVE's INITIAL, at the connection's first event,
        starts from them and replaces what it assigns."""
        self._n.set_values(integer(conn, "conn", 0), [real(v, "values") for v in values])
        return self

    def run(self, tstop: float) -> "Network":
        """Advances every part to tstop (ms)."""
        self._n.run(real(tstop, "tstop"))
        return self

    @property
    def epoch(self) -> Tuple[float, int]:
        """(ms, epochs): the epoch length (0 before the first run) and the
        epochs run."""
        return self._n.epoch()

    def spikes(self) -> Tuple[np.ndarray, np.ndarray]:
        """(gids, times): every spike so far, ordered by time then gid."""
        return self._n.spikes(False)

    def __repr__(self) -> str:
        ms, n = self.epoch
        return (f"hinesbatch.Network({len(self._parts)} parts, {self.connections} connections, "
                f"epoch {ms:g} ms, {n} epochs run)")
