"""test_hostile_args.py: integers past any C type, fractions, bools, NaN and wrong types given for scalar arguments raise InvalidArgumentError naming the argument (never nanobind's TypeError, never a silent truncation); integral floats and numpy integers still work."""
from __future__ import annotations

import numpy as np
import pytest

import hinesbatch as hb

HUGE = (2 ** 70, -(2 ** 70), 2 ** 64, 10 ** 5000)


def bad(name):
    """The package's own error for argument `name` (status 1, a ValueError)."""
    return pytest.raises(hb.InvalidArgumentError, match=name)


@pytest.fixture
def cell():
    return hb.Cell.synth_levels(64, 2)


def test_huge_integers_named(cell):
    for v in HUGE:
        with bad("ncells"):
            hb.Simulation(cell, v, backend="serial")
        with bad("nsys"):
            hb.Plan.tridiagonal(v, 4, backend="serial")
        with bad("n: "):
            hb.Plan.tridiagonal(4, v, backend="serial")
        with bad("nsys"):
            hb.Plan.hines([-1, 0, 1], v, backend="serial")
        with bad("nsys"):
            hb.batch(cell, v)
        with bad("n: "):
            hb.Cell.synth_levels(v, 2)
        with bad("levels"):
            hb.Cell.synth_levels(64, v)
        with bad("seed"):
            hb.Cell.synth_branchy(64, 10.0, v)
        with bad("nseg"):
            hb.Morphology.parse("1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n").discretise("section", nseg=v)
        with bad("device"):
            hb.Context("serial", device=v)
        with bad("ncells"):
            hb.Cardiac("beeler_reuter_1977", v, backend="serial")
    # Past int32 where the C argument is int32_t (not wrapped to a small value).
    with bad("levels"):
        hb.Cell.synth_levels(64, 2 ** 32 + 2)
    with bad("seed"):
        hb.Cell.synth_random(3, 1.0, 0.3, 10.0, 5.0, -1)


def test_huge_integers_in_sim_methods(cell):
    sim = hb.Simulation(cell, 2, backend="serial")
    for v in (2 ** 70, -(2 ** 70)):
        with bad("cell"):
            sim.record(v)
        with bad("cell"):
            sim.add_iclamp(v, 0.1)
        with bad("compartment"):
            sim.add_iclamp(0, 0.1, compartment=v)
        with bad("cell"):
            sim.probe(v, 0, "v")
        with bad("cell"):
            sim.spikes(v)
        with bad("where cell"):
            sim.insert("pas", where={"cell": v})
        with bad("seed"):
            pid = sim.add_point("ExpSyn", 0)
            sim.add_spike_train(pid, 0.01, rate=10.0, seed=v)


def test_fractions_refused(cell):
    with bad("ncells"):
        hb.Simulation(cell, 1.5, backend="serial")
    with bad("nsys"):
        hb.Plan.tridiagonal(2.5, 4, backend="serial")
    with bad("n: "):
        hb.Plan.tridiagonal(2, 4.5, backend="serial")
    with bad("n: "):
        hb.Cell.synth_levels(64.5, 2)
    with bad("nsys"):
        hb.batch(cell, 2.5)
    for v in (float("nan"), float("inf"), "3", None, [2], True):
        with bad("ncells"):
            hb.Simulation(cell, v if v is not None else object(), backend="serial")
    sim = hb.Simulation(cell, 3, backend="serial")
    with bad("cell"):
        sim.record(1.5)
    with bad("cell"):
        sim.record([0, 1.5])
    with bad("SWC type 1.5"):  # was int(1.5) == 1: the soma
        sim.insert("pas", where={"types": [1.5]})
    with bad("SWC type"):
        sim.insert("pas", where={"types": 2.5})
    with bad("where cell"):
        sim.insert("pas", where={"cell": 0.5})
    with bad("ncells"):
        hb.Cardiac("beeler_reuter_1977", 2.5, backend="serial")
    c = hb.Cardiac("beeler_reuter_1977", 2, backend="serial")
    with bad("nsteps"):
        c.run(1.5)
    with bad("every"):
        c.record([0], every=2.5)
    with bad("cells"):
        c.record([0.5])


def test_option_dicts(cell):
    p = [-1, 0, 1, 1]
    for k in ("group_size", "block_size"):
        for v in (2 ** 70, -(2 ** 70), 2 ** 31, 1.5, "4", float("nan")):
            with bad(f"plan option {k}"):
                hb.Plan.hines(p, 4, backend="serial", **{k: v})
    for k in ("shared_couplings", "auto_estimate"):
        for v in (2, -1, 0.5, "yes", float("nan"), None.__class__):
            with bad(f"plan option {k}"):
                hb.Plan.hines(p, 4, backend="serial", **{k: v})
    for v in (True, False):
        assert hb.Plan.hines(p, 4, backend="serial", auto_estimate=v).nsys == 4
    for k in ("max_spikes", "record_chunk", "epoch_steps"):
        for v in (2 ** 70, -(2 ** 64), 1.5):
            with bad(k):
                hb.Simulation(cell, 2, backend="serial", **{k: v})
    with bad("plan option group_size"):
        hb.Simulation(cell, 2, backend="serial", plan={"group_size": 2 ** 40})
    with bad("plan: a dict"):
        hb.Simulation(cell, 2, backend="serial", plan=[("group_size", 1)])
    with bad("dt"):
        hb.Simulation(cell, 2, backend="serial", dt=10 ** 400)
    with bad("dt"):
        hb.Simulation(cell, 2, backend="serial", dt="0.025")


def test_integral_values_still_work(cell):
    # Exact integral floats, numpy integers and numpy bools are accepted.
    sim = hb.Simulation(cell, np.int64(3), backend="serial", max_spikes=np.int32(8),
                        epoch_steps=10.0, plan={"group_size": np.int16(0)})
    assert sim.ncells == 3
    sim.record(np.uint8(1)).record([0.0, np.int64(2)])
    sim.insert("pas", where={"types": [np.int32(3), 4.0]})
    sim.run(0.1)
    assert sim.traces()[1].shape[0] == 3
    assert hb.Simulation(cell, 2.0, backend="serial").ncells == 2
    plan = hb.Plan.hines([-1, 0, 1], np.int64(5), backend="serial",
                         shared_couplings=np.True_, group_size=np.int64(0))
    assert plan.info()["shared_couplings"] and plan.nsys == 5
    assert hb.Plan.tridiagonal(4.0, np.int32(3), backend="serial").shape == (4, 3)
    assert hb.Cell.synth_levels(np.int64(64), 2.0).n == 64
