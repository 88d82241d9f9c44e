"""test_cardiac.py: hinesbatch.Cardiac: the built-in Beeler-Reuter 1977 paced on the serial backend against the same batch on every compiled host backend, per-cell parameters, recording shape, a fiber's conduction, refusals."""
import numpy as np
import pytest

import hinesbatch as hb

BR = "beeler_reuter_1977"


def test_models():
    names = [m["name"] for m in hb.cardiac_models()]
    assert BR in names
    m = {m["name"]: m for m in hb.cardiac_models()}[BR]
    assert m["states"][0][0] == "membrane_V" and m["stimulus"] == "membrane_i_stim_amplitude"


def run(backend, dtype):
    c = hb.Cardiac(BR, 20, dt=0.01, dtype=dtype, backend=backend)
    c.set_param("isi_gs", np.linspace(0.07, 0.11, 20))
    c.set_protocol(start=5, duration=2, period=1000)
    c.record([0, 19], ["membrane_V", "isi_Cai"], every=10)
    c.run(35000)
    return c.recording(), c.state("membrane_V")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_paced_cells(dtype):
    rec, v = run("serial", dtype)
    assert rec.shape == (3500, 4)
    assert rec[:, 0].max() > 20 and rec[-1, 0] < -80  # an action potential, back at rest
    # More calcium current (cell 19): a longer plateau above -60 mV.
    assert (rec[:, 2] > -60).sum() > (rec[:, 0] > -60).sum()
    for b in ("openmp",):
        if hb._core.backend_compiled(b):
            r2, v2 = run(b, dtype)
            np.testing.assert_array_equal(rec, r2)  # the host backends run the same code


def test_fiber():
    c = hb.Cardiac(BR, 100, dt=0.01, backend="serial")
    c.set_fiber(100, dx=0.01)
    amp = np.zeros(100)
    amp[:5] = -25
    c.set_param("membrane_i_stim_amplitude", amp)
    c.set_protocol(start=1, duration=2)
    c.record([25, 75], every=1)
    c.run(4000)
    v = c.recording()
    ta, tb = (np.argmax(v[:, k] >= -30) for k in (0, 1))
    cv = 0.5 / ((tb - ta) * 0.01) * 10  # m/s over 0.5 cm
    assert 0.35 < cv < 0.5, cv


def test_refusals():
    with pytest.raises(hb.InvalidArgumentError, match="not in the cardiac catalogue"):
        hb.Cardiac("bogus", 4, backend="serial")
    c = hb.Cardiac(BR, 4, backend="serial")
    with pytest.raises(hb.InvalidArgumentError, match="no parameter of that name"):
        c.set_param("nope", 1.0)
    with pytest.raises(hb.InvalidArgumentError, match="whole number of steps"):
        c.set_protocol(start=0.005, duration=1)
    with pytest.raises(hb.InvalidArgumentError, match="nnodes = 3"):
        c.set_fiber(3)
