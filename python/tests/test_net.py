"""test_net.py: networks (hinesbatch.Network) on every CPU backend: a ring of cells whose spikes travel round it with the delays, the same spikes split over two parts as in one and as on the serial backend, spike_time delivery, connection values (none for ExpSyn), the parts kept alive, a spike detector moved off the soma, and bad calls refused with the library's codes."""
from __future__ import annotations

import gc
import os

import numpy as np
import pytest

import hinesbatch as hb
from conftest import DATA


@pytest.fixture(scope="module")
def cell():
    return hb.load_swc(os.path.join(DATA, "jaxley__morph_minimal.swc")).discretise("section",
                                                                                 nseg=0)


def ring(cell, backend, delays, split=(0,), delivery="step_end", dtype="float64"):
    """A ring of len(delays) cells, cell i -> i + 1 through an ExpSyn with
    delays[i]; cell 0 kicked by a clamp. split: the first cell of each part."""
    n = len(delays)
    bounds = list(split) + [n]
    net = hb.Network(delivery)
    syn = {}
    sims = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        s = hb.Simulation(cell, hi - lo, backend=backend, dtype=dtype)
        for c in range(lo, hi):
            syn[c] = (len(sims), s.add_point("ExpSyn", c - lo, tau=2.0))
        if lo == 0:
            s.add_iclamp(0, amp=1.0, onset=1.0, dur=2.0)
        net.add(s, range(lo, hi))
        sims.append(s)
    for i, d in enumerate(delays):
        part, pt = syn[(i + 1) % n]
        assert net.connect(i, part, pt, weight=0.5, delay=d) == i
    net.run(40.0)
    return net, sims


def first_spikes(net, n):
    gids, t = net.spikes()
    assert np.all(np.diff(t) >= 0), "spikes not ordered by time"
    return np.array([t[gids == g][0] if np.any(gids == g) else np.nan for g in range(n)])


def test_ring_travels(cell, backend, rng):
    delays = rng.uniform(1.0, 4.0, 5)
    net, _ = ring(cell, backend, delays)
    first = first_spikes(net, 5)
    assert np.all(np.isfinite(first)), f"a cell of the ring never fired: {first}"
    # Each cell fires after its predecessor's spike has crossed the delay.
    for i in range(1, 5):
        assert first[i] > first[i - 1] + delays[i - 1], (i, first, delays)
        assert first[i] < first[i - 1] + delays[i - 1] + 5.0, (i, first, delays)
    assert net.connections == 5
    ms, epochs = net.epoch
    assert abs(ms - np.floor(delays.min() / 0.025 + 1e-9) * 0.025) < 1e-12 and epochs > 0
    assert "5 connections" in repr(net)


def test_split_matches(cell, backend, rng):
    delays = rng.uniform(1.0, 4.0, 6)
    one, _ = ring(cell, backend, delays)
    two, _ = ring(cell, backend, delays, split=(0, 3))
    g1, t1 = one.spikes()
    g2, t2 = two.spikes()
    assert len(g1) > 6 and np.array_equal(g1, g2)
    np.testing.assert_array_equal(t1, t2)  # bit for bit on the CPU backends
    ref, _ = ring(cell, "serial", delays)
    gr, tr = ref.spikes()
    assert np.array_equal(g1, gr)
    np.testing.assert_allclose(t1, tr, atol=1e-6)


@pytest.mark.parametrize("delivery", ["spike_time", "step_end"])
def test_delivery_and_float32(cell, backend, delivery):
    delays = [1.5, 2.0, 2.5]
    net, _ = ring(cell, backend, delays, delivery=delivery, dtype="float32")
    ref, _ = ring(cell, "serial", delays, delivery=delivery)
    g, t = net.spikes()
    gr, tr = ref.spikes()
    assert np.array_equal(g, gr)
    np.testing.assert_allclose(t, tr, atol=0.05)


def test_values_and_lifetime(cell, backend):
    net = hb.Network()
    s = hb.Simulation(cell, 2, backend=backend)
    p = s.add_point("ExpSyn", 1)
    s.add_iclamp(0, amp=1.0, onset=1.0, dur=2.0)
    net.add(s)
    c = net.connect(0, s, p, 0.5, 1.0)
    v = net.values(c)
    assert v.shape == (0,) and v.dtype == np.float64  # ExpSyn keeps none
    net.set_values(c, [])
    with pytest.raises(hb.InvalidArgumentError, match="ExpSyn.*keeps 0"):
        net.set_values(c, [1.0])
    del s  # the network keeps its part alive
    gc.collect()
    net.run(20.0)
    gids, t = net.spikes()
    assert 0 in gids and 1 in gids
    assert net.values(c).shape == (0,)


def test_bad_calls(cell):
    with pytest.raises(hb.InvalidArgumentError, match="delivery"):
        hb.Network("soon")
    net = hb.Network()
    s = hb.Simulation(cell, 2, backend="serial")
    p = s.add_point("ExpSyn", 0)
    with pytest.raises(hb.InvalidArgumentError, match="gids: 1 given"):
        net.add(s, [4])
    with pytest.raises(hb.InvalidArgumentError, match="Simulation"):
        net.add("not a simulation")
    with pytest.raises(hb.InvalidArgumentError, match="not a part"):
        net.connect(0, s, p, 0.5, 1.0)
    assert net.add(s, [7, 9]) == 0
    with pytest.raises(hb.InvalidArgumentError, match="delay"):
        net.connect(7, 0, p, 0.5, 0.001)  # below dt
    with pytest.raises(hb.InvalidArgumentError, match="part 3"):
        net.connect(7, 3, p, 0.5, 1.0)
    with pytest.raises(hb.InvalidArgumentError, match="conn 0 not in"):
        net.values(0)
    other = hb.Simulation(cell, 1, backend="serial", dt=0.05)
    with pytest.raises(hb.InvalidArgumentError):
        net.add(other)  # another dt
    net.connect(9, 0, p, 0.5, 1.0)
    net.run(5.0)
    with pytest.raises(hb.InvalidArgumentError, match="has run"):
        net.connect(7, 0, p, 0.5, 1.0)
    with pytest.raises(hb.InvalidArgumentError, match="has run"):
        net.set_values(0, [])


def test_spike_detector(cell, backend):
    """A detector on the cell's last compartment sees the soma's spike later
    (with HH everywhere the spike travels there)."""
    def first(comp):
        s = hb.Simulation(cell, 1, backend=backend, hh_everywhere=True)
        s.add_iclamp(0, amp=1.0, onset=1.0, dur=2.0)
        if comp is not None:
            s.set_spike_detector(0, comp)
        s.run(15.0)
        return s.spikes(0)
    far = cell.n - 1
    soma, moved = first(None), first(far)
    assert len(soma) >= 1 and len(moved) >= 1
    assert moved[0] > soma[0], (soma, moved)
    np.testing.assert_allclose(first(-1), soma)
    s = hb.Simulation(cell, 1, backend=backend)
    with pytest.raises(hb.InvalidArgumentError):
        s.set_spike_detector(0, cell.n)  # no such compartment
    with pytest.raises(hb.InvalidArgumentError):
        s.set_spike_detector(1, 0)  # no such cell
