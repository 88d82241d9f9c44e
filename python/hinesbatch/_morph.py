"""_morph.py: neurons: SWC morphologies, cells (discretised or synthetic) with their arrays and matrices, tree statistics and batches."""
from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._arrays import host_index
from ._args import INT32, UINT64, flag, integer, real
from ._errors import invalid

__all__ = ["Morphology", "Cell", "load_swc", "tree_stats", "tree_level_counts", "tree_order",
           "batch"]

# Units (docs/morphology.md): um, um^2, ms, mV, uF/cm^2, ohm*cm, S/cm^2, uS, nA.


def _cable(ra: Optional[float], cm: Optional[float], gm: Optional[float]) -> Dict[str, float]:
    return {k: real(v, k) for k, v in (("ra", ra), ("cm", cm), ("gm", gm)) if v is not None}


class Morphology:
    """An SWC reconstruction: samples sorted so parents come first.

    Load with ``load_swc(path)`` or ``Morphology.parse(text)``; make
    compartments with ``discretise``.
    """

    def __init__(self, core: Any):
        self._m = core

    @classmethod
    def read(cls, path: Union[str, os.PathLike], *, scale: float = 1.0,
             repair_radii: bool = False) -> "Morphology":
        """Read an SWC file (scale multiplies coordinates and radii, e.g.
        1e-3 for nm; repair_radii gives a radius <= 0 its parent's).
        Raises FileError or ParseError (the message names file and line)."""
        return cls(_core.Morph.read_swc(os.fspath(path), real(scale, "scale"),
                                        flag(repair_radii, "repair_radii")))

    @classmethod
    def parse(cls, text: Union[str, bytes], name: str = "<string>", *, scale: float = 1.0,
              repair_radii: bool = False) -> "Morphology":
        """Parse SWC text (str or bytes)."""
        if isinstance(text, str):
            text = text.encode()
        return cls(_core.Morph.parse_swc(bytes(text), name, real(scale, "scale"),
                                         flag(repair_radii, "repair_radii")))

    def info(self) -> Dict[str, Union[int, float, str]]:
        """samples, repaired, soma ("none", "single-point", "three-point",
        "samples"), soma_radius and total_length (um)."""
        return self._m.info()

    def samples(self) -> Dict[str, np.ndarray]:
        """The samples as arrays: id, type, x, y, z, radius, parent (index, -1
        at the root), line."""
        return self._m.samples()

    def discretise(self, policy: str = "sample", *, nseg: int = 1, d_lambda: float = 0.1,
                   reroot: bool = False, max_compartments: int = 0,
                   ra: Optional[float] = None, cm: Optional[float] = None,
                   gm: Optional[float] = None, conventions: str = "hinesbatch",
                   seg_length: float = 0.0) -> "Cell":
        """Compartments: policy "sample" (one per sample) or "section"
        (NEURON-style sections of nseg compartments; nseg=0: the d_lambda
        rule, or with seg_length > 0 (um) 1 + 2 floor(L / seg_length), Hay et
        al.'s rule). ra (ohm*cm, 35.4), cm (uF/cm^2, 1), gm (S/cm^2, 0).
        conventions="neuron" (with "section"): the cell NEURON's Import3d
        builds from the same file (docs/morphology.md)."""
        return Cell(_core.Cell.create(self._m, policy, integer(nseg, "nseg", *INT32),
                                      real(d_lambda, "d_lambda"), flag(reroot, "reroot"),
                                      integer(max_compartments, "max_compartments"),
                                      _cable(ra, cm, gm), conventions,
                                      real(seg_length, "seg_length")))

    discretize = discretise

    def __repr__(self) -> str:
        i = self.info()
        return f"hinesbatch.Morphology({i['samples']} samples, {i['total_length']:.1f} um)"


def load_swc(path: Union[str, os.PathLike], **kwargs: Any) -> Morphology:
    """Read an SWC file: Morphology.read(path, **kwargs)."""
    return Morphology.read(path, **kwargs)


class Cell:
    """A discretised neuron: compartments in Hines order (parent < child,
    every branch contiguous), with areas, axial conductances and distances."""

    def __init__(self, core: Any):
        self._c = core

    @classmethod
    def from_parent(cls, parent: Any, length: float = 10.0, diam: float = 1.0, *,
                    ra: Optional[float] = None, cm: Optional[float] = None,
                    gm: Optional[float] = None) -> "Cell":
        """A cell of any tree (parent[k] < k, parent[0] = -1) of cylinders
        (um), renumbered into Hines order."""
        return cls(_core.Cell.from_parent(host_index(parent, "parent"), real(length, "length"),
                                          real(diam, "diam"), _cable(ra, cm, gm)))

    @classmethod
    def synth_levels(cls, n: int, levels: int, *, length: float = 10.0, diam: float = 1.0,
                     ra: Optional[float] = None, cm: Optional[float] = None,
                     gm: Optional[float] = None) -> "Cell":
        """The multi-morphology paper's synthetic cell of n nodes and branch levels."""
        return cls(_core.Cell.synth_levels(integer(n, "n"), integer(levels, "levels", *INT32),
                                           real(length, "length"), real(diam, "diam"),
                                           _cable(ra, cm, gm)))

    @classmethod
    def synth_random(cls, levels: int, p_start: float, p_end: float, len_start: float,
                     len_end: float, seed: int = 0, *, length: float = 10.0,
                     diam: float = 1.0, ra: Optional[float] = None, cm: Optional[float] = None,
                     gm: Optional[float] = None) -> "Cell":
        """Arbor's random-branching cell (branch probabilities and lengths per level)."""
        return cls(_core.Cell.synth_random(integer(levels, "levels", *INT32),
                                           real(p_start, "p_start"), real(p_end, "p_end"),
                                           real(len_start, "len_start"), real(len_end, "len_end"),
                                           integer(seed, "seed", *UINT64), real(length, "length"),
                                           real(diam, "diam"), _cable(ra, cm, gm)))

    @classmethod
    def synth_branchy(cls, n: int, percent: float, seed: int = 0, *, length: float = 10.0,
                      diam: float = 1.0, ra: Optional[float] = None, cm: Optional[float] = None,
                      gm: Optional[float] = None) -> "Cell":
        """n nodes of which percent% are branch points."""
        return cls(_core.Cell.synth_branchy(integer(n, "n"), real(percent, "percent"),
                                            integer(seed, "seed", *UINT64), real(length, "length"),
                                            real(diam, "diam"), _cable(ra, cm, gm)))

    @property
    def n(self) -> int:
        """Compartments."""
        return self._c.n

    def arrays(self) -> Dict[str, np.ndarray]:
        """Copies of parent, area (um^2), diam (um: the mean diameter over
        each compartment, NEURON's seg.diam), g_axial (uS), distance (um),
        type and source (sample or node each compartment came from)."""
        return self._c.arrays()

    @property
    def parent(self) -> np.ndarray:
        return self.arrays()["parent"]

    @property
    def cable(self) -> Dict[str, float]:
        """ra (ohm*cm), cm (uF/cm^2), gm (S/cm^2)."""
        return self._c.cable()

    def matrix(self, dt: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(d, u, l) of the implicit Euler step of the passive cable for dt ms
        (inf: steady state), ready for solve_hines(cell.parent, u, l, d, rhs)."""
        return self._c.matrix(real(dt, "dt"))

    def cdt(self, dt: float) -> np.ndarray:
        """C/dt per compartment, uS (rhs = cdt * V + I)."""
        return self._c.cdt(real(dt, "dt"))

    def reroot(self) -> "Cell":
        """Re-root at the compartment that minimises the depth in branches."""
        self._c.reroot()
        return self

    def stats(self) -> Dict[str, int]:
        """tree_stats of the cell's parent array."""
        return tree_stats(self.parent)

    def __repr__(self) -> str:
        return f"hinesbatch.Cell({self.n} compartments)"


def tree_stats(parent: Any) -> Dict[str, int]:
    """nodes, branches, branch_points, tips, levels (depth in branches),
    longest_branch, max_level_width of a parent array."""
    return _core.tree_stats(host_index(parent, "parent"))


def tree_level_counts(parent: Any) -> np.ndarray:
    """Branches on each level (level 1 first)."""
    return _core.tree_level_counts(host_index(parent, "parent"))


def tree_order(parent: Any) -> Tuple[np.ndarray, np.ndarray]:
    """(new_of_old, new_parent): the Hines order with contiguous branches."""
    return _core.tree_order(host_index(parent, "parent"))


def batch(cells: Union[Cell, Sequence[Cell]], nsys: Optional[int] = None,
          dt: float = 0.025) -> Dict[str, Any]:
    """The arrays of a batch for solve_hines / Plan.hines: nsys copies of one
    cell, or one system per cell of a list. Keys: nsys, n (rows per system
    when mono, else 0), offsets, parent, d, u, l, cdt, area."""
    if isinstance(cells, Cell):
        if nsys is None:
            raise invalid("nsys: needed with one cell")
        return _core.batch_mono(cells._c, integer(nsys, "nsys"), real(dt, "dt"))
    if nsys is not None:
        raise invalid("nsys: only with one cell")
    return _core.batch_multi([c._c for c in cells], real(dt, "dt"))
