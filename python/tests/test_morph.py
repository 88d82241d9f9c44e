"""test_morph.py: SWC loading, discretisation, cell arrays and matrices, tree statistics and batches of the shipped neurons."""
from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import hinesbatch as hb
from conftest import DATA, dense_hines

SWC = sorted(glob.glob(os.path.join(DATA, "*.swc")))


@pytest.mark.parametrize("path", SWC, ids=[os.path.basename(p) for p in SWC])
def test_shipped_neurons(path):
    m = hb.load_swc(path)
    info = m.info()
    s = m.samples()
    assert info["samples"] == s["x"].size > 0 and info["total_length"] > 0
    assert s["parent"][0] == -1 and np.all(s["parent"][1:] < np.arange(1, s["x"].size))
    for policy in ("sample", "section"):
        cell = m.discretise(policy, nseg=0 if policy == "section" else 1)
        arr = cell.arrays()
        assert arr["parent"][0] == -1 and np.all(arr["parent"][1:] < np.arange(1, cell.n))
        assert np.all(arr["area"] > 0) and np.all(arr["g_axial"][1:] > 0)
        # The mean diameter lies within the samples' diameters.
        d = 2 * s["radius"]
        assert np.all(arr["diam"] >= d.min() * (1 - 1e-12))
        assert np.all(arr["diam"] <= d.max() * (1 + 1e-12))
        st = cell.stats()
        assert st["nodes"] == cell.n and st["tips"] >= 1
        assert hb.tree_level_counts(cell.parent).sum() == st["branches"]


def test_parse_matches_read():
    path = SWC[0]
    with open(path, "rb") as f:
        text = f.read()
    a = hb.Morphology.parse(text, name=os.path.basename(path)).samples()
    b = hb.load_swc(path).samples()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_scale_and_repair():
    text = "1 1 0 0 0 5 -1\n2 3 0 0 10 0 1\n3 3 0 0 20 1 2\n"
    with pytest.raises(hb.ParseError):
        hb.Morphology.parse(text)
    m = hb.Morphology.parse(text, repair_radii=True, scale=2.0)
    assert m.info()["repaired"] == 1
    assert m.samples()["z"][2] == 40.0


def test_matrix_is_the_implicit_euler_step():
    cell = hb.Cell.synth_levels(128, 3)
    dt = 0.025
    d, u, l = cell.matrix(dt)
    cdt = cell.cdt(dt)
    A = dense_hines(cell.parent, u, l, d)
    # No membrane conductance: row sums are C/dt (the axial terms cancel).
    np.testing.assert_allclose(A.sum(axis=1), cdt, rtol=1e-9)
    np.testing.assert_allclose(A, A.T)


def test_from_parent_and_order(rng):
    parent = np.array([-1, 0, 0, 1, 2, 2, 5])
    cell = hb.Cell.from_parent(parent, length=5, diam=2)
    assert cell.n == 7 and sorted(cell.arrays()["source"]) == list(range(7))
    new_of_old, new_parent = hb.tree_order(parent)
    assert sorted(new_of_old) == list(range(7)) and new_parent[0] == -1
    assert hb.tree_stats(parent)["branch_points"] == 2


def test_synthetic_cells():
    r = hb.Cell.synth_random(5, 1.0, 0.5, 200, 50, seed=3)
    assert r.n > 1 and r.stats()["levels"] <= 5
    b = hb.Cell.synth_branchy(200, 10, seed=1)
    assert b.n == 200 and b.stats()["branch_points"] == 20
    lv = hb.Cell.synth_levels(512, 4)
    assert lv.stats()["levels"] == 4
    assert lv.reroot().n == 512


def test_batches_solve(backend):
    cells = [hb.load_swc(p).discretise("section", nseg=0) for p in SWC[:3]]
    bt = hb.batch(cells, dt=0.025)
    assert bt["nsys"] == 3 and bt["offsets"][-1] == sum(c.n for c in cells)
    rhs = bt["cdt"] * -65.0
    v = hb.solve_hines(bt["parent"], bt["u"], bt["l"], bt["d"], rhs, offsets=bt["offsets"],
                       backend=backend)
    np.testing.assert_allclose(v, -65.0, rtol=1e-9)  # at rest, no current: V stays
    mono = hb.batch(cells[0], 4)
    assert mono["n"] == cells[0].n and mono["nsys"] == 4


@pytest.mark.parametrize("path", SWC, ids=[os.path.basename(p) for p in SWC])
def test_neuron_conventions(path):
    """conventions="neuron": NEURON's Import3d cell; areas of 0 only at the
    zero-area nodes kept where three or more compartments meet, the root is
    the soma's middle (type 1). ci/neuron-import-check.sh compares with NEURON."""
    m = hb.load_swc(path)
    cell = m.discretise("section", nseg=0, conventions="neuron")
    arr = cell.arrays()
    deg = np.bincount(arr["parent"][1:], minlength=cell.n) + (np.arange(cell.n) > 0)
    assert np.all(arr["area"] >= 0) and np.all(deg[arr["area"] == 0] >= 3)
    assert np.all(arr["g_axial"][1:] > 0) and arr["type"][0] == 1
    if os.path.basename(path) == "nrn__c91662.swc":
        assert cell.n == 822  # NEURON: 728 segments and 94 kept branch nodes
    with pytest.raises(ValueError):
        m.discretise("sample", conventions="neuron")
    with pytest.raises(ValueError):
        m.discretise("section", conventions="arbor")
