"""test_sim.py: simulations on every CPU backend against the serial one: spikes of clamped cells, traces, state, timing, float32, and the plot helper (Agg)."""
from __future__ import annotations

import os

import numpy as np
import pytest

import hinesbatch as hb
from conftest import DATA


@pytest.fixture(scope="module")
def neuron():
    return hb.load_swc(os.path.join(DATA, "nrn__c91662.swc")).discretise("section", nseg=0)


def run(cell, backend, ncells=6, **kw):
    s = hb.Simulation(cell, ncells, backend=backend, **kw)
    s.add_iclamp(range(0, ncells, 2), amp=1.0, onset=2.0, dur=30.0)  # even cells clamped
    s.record(range(ncells))
    s.run(40.0)
    return s


def test_spikes_and_traces(neuron, backend):
    s = run(neuron, backend)
    assert s.steps == 1600 and abs(s.t - 40.0) < 1e-9
    counts = s.spike_counts()
    assert np.all(counts[0::2] > 0) and np.all(counts[1::2] == 0)
    cells, v = s.traces()
    assert list(cells) == list(range(6)) and v.shape == (6, 1601)
    assert v[0].max() > 0 and v[1].max() < -40
    assert s.rows == 6 * neuron.n and s.cell_rows(1) == (neuron.n, neuron.n)
    assert s.state("v").shape == (s.rows,)
    m = s.state("m")
    assert np.all((m >= 0) & (m <= 1))
    assert s.timing()["steps"] == 1600
    ref = run(neuron, "serial")
    np.testing.assert_allclose(v, ref.traces()[1], atol=1e-6)
    for c in range(0, 6, 2):
        np.testing.assert_allclose(s.spikes(c), ref.spikes(c), atol=1e-6)


def test_float32(neuron, backend):
    s = run(neuron, backend, ncells=2, dtype="float32")
    ref = run(neuron, "serial", ncells=2)
    assert s.spike_counts()[0] == ref.spike_counts()[0]
    np.testing.assert_allclose(s.spikes(0), ref.spikes(0), atol=0.05)


def test_multi_morphology(backend):
    cells = [hb.Cell.synth_levels(256, 4), hb.Cell.synth_branchy(300, 5, seed=2)]
    s = hb.Simulation(cells, backend=backend, hh_everywhere=True, dt=0.05)
    s.add_iclamp([0, 1], 0.3, 1, 20).record([0, 1]).run(25)
    assert s.traces()[1].shape == (2, 501)
    assert "2 cells" in s.describe()


def test_engines(neuron, backend):
    """Each engine asked for gives the serial oracle's traces; the serial
    backend (the oracle) refuses cells."""
    ref = run(neuron, "serial", ncells=3)
    for engine in ("stages", "cells"):
        if engine == "cells" and backend == "serial":
            with pytest.raises(hb.BackendUnavailableError):
                run(neuron, backend, ncells=3, engine=engine)
            continue
        s = run(neuron, backend, ncells=3, engine=engine, epoch_steps=37, record_chunk=101)
        assert ("engine: " + engine) in s.describe()
        np.testing.assert_allclose(s.traces()[1], ref.traces()[1], atol=1e-6)
        t = s.timing()
        assert t["steps"] == 1600 and t["compulsory_bytes"] > 0
    with pytest.raises(hb.InvalidArgumentError):
        hb.Simulation(neuron, 1, backend=backend, engine="warp")


def test_plot(neuron, tmp_path):
    pytest.importorskip("matplotlib")
    s = run(neuron, "serial", ncells=2)
    png = tmp_path / "v.png"
    fig = s.plot(png, title="test")
    assert png.stat().st_size > 1000 and fig is not None


def test_catalogue():
    mechs = {m["name"]: m for m in hb.mechanisms()}
    assert {"pas", "hh", "ExpSyn", "Exp2Syn"} <= set(mechs)
    assert mechs["hh"]["kind"] == "density" and mechs["hh"]["parameters"]["gnabar"] == 0.12
    assert mechs["ExpSyn"]["kind"] == "point" and mechs["ExpSyn"]["net_receive"]
    assert mechs["hh"]["states"][:3] == ["m", "h", "n"]
    assert mechs["hh"]["currents"] == ["ina", "ik", "il"] and mechs["pas"]["currents"] == ["i"]


def model(neuron, backend, seed, **kw):
    """A model of the catalogue: pas everywhere, hh in the soma with gnabar
    falling with distance, na by Nernst, synapses fed by a Poisson train."""
    s = hb.Simulation(neuron, 2, backend=backend, **kw)
    s.insert("pas", g=2e-4, e=-65.0)
    s.insert("hh", where={"types": ["soma"]}, gl=0.0)
    s.set_param("hh", "gnabar", (0.1, 0.0, 0.05, -0.01), where={"types": "soma"})
    s.set_ion("na", ci=10.0, co=140.0, nernst=True)
    syn = s.add_point("Exp2Syn", 0, -1, tau1=0.5, tau2=3.0, e=0.0)
    s.add_spike_train(syn, weight=0.01, start=2.0, stop=30.0, rate=200.0, seed=seed)
    s.add_events(s.add_point("ExpSyn", 1, -1, tau=2.0), [5.0, 6.0, 7.0], 0.05)
    s.record([0, 1]).run(30.0)
    return s


def test_model(neuron, backend):
    """A model built from the catalogue: the same numbers as the serial
    oracle; the synapses drive the cells; mechanism state readable."""
    seed = int(np.random.default_rng().integers(1 << 62))
    print("seed", seed)
    ref = model(neuron, "serial", seed)
    s = model(neuron, backend, seed)
    np.testing.assert_allclose(s.traces()[1], ref.traces()[1], atol=1e-6)
    assert "Exp2Syn 1" in s.describe() and "ExpSyn 1" in s.describe()
    assert s.traces()[1][1].max() > -60  # three 50 nS events depolarise cell 1
    m = s.mech_state("hh", "m")
    soma = [s.cell_rows(c)[0] + s.soma(c) for c in range(2)]
    assert np.all(np.isfinite(m[soma])) and np.isnan(m).sum() == s.rows - np.isfinite(m).sum()
    g = s.mech_state("ExpSyn", "g")
    assert g.shape == (1,) and g[0] > 0
    with pytest.raises(hb.InvalidArgumentError):
        s.insert("pas")  # after the first run
    t = hb.Simulation(neuron, 1, backend=backend)
    with pytest.raises(hb.InvalidArgumentError):
        t.insert("nosuch")
    with pytest.raises(hb.InvalidArgumentError):
        t.insert("pas", where={"types": ["nowhere"]})
    with pytest.raises(hb.InvalidArgumentError):
        t.add_spike_train(t.add_point("ExpSyn", 0), weight=1.0, stop=5.0)


def test_cm_and_seg_length():
    """set_cm everywhere gives the numbers of cells made with that cm;
    seg_length's rule gives 1 + 2 floor(L / seg_length) per section."""
    m = hb.load_swc(os.path.join(DATA, "nrn__c91662.swc"))
    one = m.discretise("section", nseg=1)
    assert m.discretise("section", nseg=0, seg_length=1e9).n == one.n
    assert m.discretise("section", nseg=0, seg_length=20.0).n > one.n
    a = hb.Simulation(m.discretise("section", nseg=1, cm=2.0), 1, backend="serial")
    b = hb.Simulation(one, 1, backend="serial").set_cm(2.0)
    for s in (a, b):
        s.add_iclamp(0, 1.0, 1.0, 10.0).record(0).run(15.0)
    np.testing.assert_array_equal(a.traces()[1], b.traces()[1])
    with pytest.raises(hb.InvalidArgumentError):
        hb.Simulation(one, 1, backend="serial").set_cm(-1.0)


def test_probes(neuron, backend):
    """Probes: v at compartments, hh's m and the sodium current at the soma,
    a synapse's conductance; the last samples are the state at the end, the
    soma v probe equals record(), every trace equals the serial oracle's."""
    rng = np.random.default_rng()
    seed = int(rng.integers(1 << 62))
    print("seed", seed)
    rng = np.random.default_rng(seed)

    def build(bk):
        s = hb.Simulation(neuron, 2, backend=bk, record_chunk=int(rng_c.integers(5, 200)))
        s.insert("pas", g=2e-4, e=-65.0)
        s.insert("hh", where={"types": ["soma"]}, gl=0.0)
        syn = s.add_point("ExpSyn", 1, -1, tau=2.0)
        s.add_events(syn, [3.0, 4.0], 0.05)
        s.add_iclamp(0, 1.0, 1.0, 10.0)
        s.record(0)
        ids = [s.probe(c, k, "v") for c, k in comps]
        ids += [s.probe(0, -1, "v"), s.probe(0, -1, "hh.m"), s.probe(1, -1, "ina"),
                s.probe(0, -1, "ena"), s.probe_point(syn, "g")]
        s.run(15.0)
        return s, ids

    rows = hb.Simulation(neuron, 1).rows
    rng_c = np.random.default_rng(seed)
    comps = [(int(rng.integers(2)), int(rng.integers(rows))) for _ in range(3)]
    ref, _ = build("serial")
    rng_c = np.random.default_rng(seed)
    s, ids = build(backend)
    cells, v = s.traces()
    assert ids == list(range(1, len(ids) + 1)) and v.shape[0] == len(ids) + 1
    info = s.trace_info()
    assert info[0]["probe"] is False and info[0]["what"] == "v"
    assert [i["what"] for i in info[-5:]] == ["v", "hh.m", "ina", "ena", "ExpSyn.g"]
    assert info[-1]["point"] == 0 and info[-1]["cell"] == 1
    end_v = s.state("v")
    for (c, k), r in zip(comps, ids):
        assert v[r, -1] == end_v[s.cell_rows(c)[0] + k]
    np.testing.assert_array_equal(v[0], v[ids[3]])  # record(0) is the soma v probe
    soma0 = s.cell_rows(0)[0] + s.soma(0)
    assert v[ids[4], -1] == s.mech_state("hh", "m")[soma0]
    assert v[ids[-1], -1] == s.mech_state("ExpSyn", "g")[0] and v[ids[-1]].max() > 0
    # ina at t = 0: hh's at the state after INITIAL (inward at rest), as NEURON records it
    assert v[ids[5], 0] < 0 and np.abs(v[ids[5]]).max() > 0
    np.testing.assert_allclose(v, ref.traces()[1], rtol=1e-9, atol=1e-9)
    with pytest.raises(hb.InvalidArgumentError, match="nosuch"):
        hb.Simulation(neuron, 1).probe(0, -1, "hh.nosuch")
    with pytest.raises(hb.InvalidArgumentError):
        s.probe(0, -1, "v")  # after the first run


def test_mechanism_currents(neuron, backend):
    """A mechanism's own currents (pas's i, hh's ina and il) probed at the soma: each
    step's value is the formula at the values of the step's start (at t = 0, those after
    INITIAL), NEURON's recording convention."""
    s = hb.Simulation(neuron, 1, backend=backend)
    s.insert("pas", g=2e-4, e=-65.0)
    s.insert("hh", where={"types": ["soma"]})
    s.add_iclamp(0, 1.0, 1.0, 5.0)
    ids = [s.probe(0, -1, w) for w in ("v", "pas.i", "hh.ina", "hh.il", "hh.m", "hh.h", "ena",
                                        "hh.el")]
    s.run(8.0)
    _, tr = s.traces()
    v, i, ina, il, m, h, ena, el = (tr[k] for k in ids)
    prev = np.concatenate([[0], np.arange(len(v) - 1)])  # the sample of each step's start
    np.testing.assert_allclose(i, 2e-4 * (v[prev] + 65.0), rtol=1e-12, atol=1e-18)
    gna = s.mech_state("hh", "gnabar")[s.cell_rows(0)[0] + s.soma(0)]
    np.testing.assert_allclose(ina, gna * m[prev] ** 3 * h[prev] * (v[prev] - ena[prev]),
                               rtol=1e-9, atol=1e-15)
    gl = s.mech_state("hh", "gl")[s.cell_rows(0)[0] + s.soma(0)]
    np.testing.assert_allclose(il, gl * (v[prev] - el[prev]), rtol=1e-12, atol=1e-18)
    assert np.abs(ina).max() > 0.1  # it spiked
    info = s.trace_info()
    assert [info[k]["what"] for k in ids[1:4]] == ["pas.i", "hh.ina", "hh.il"]
    with pytest.raises(hb.InvalidArgumentError, match="it has: .*il"):
        hb.Simulation(neuron, 1).probe(0, -1, "hh.inx")
