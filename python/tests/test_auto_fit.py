"""test_auto_fit.py: AUTO's cost-model constants in api/core/auto.c are the ones the benchmark record's fit.py derives from its recorded times."""
from __future__ import annotations

import importlib.util
import os
import re

import pytest

from conftest import ROOT

RECORD = os.path.join(ROOT, "docs", "benchmarks", "h200-2026-12-01-shape")
AUTO_C = os.path.join(ROOT, "api", "core", "auto.c")


def _fit_module():
    path = os.path.join(RECORD, "fit.py")
    if not os.path.exists(path) or not os.path.exists(AUTO_C):
        pytest.skip("not run from a source tree")
    spec = importlib.util.spec_from_file_location("hb_record_fit", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _c_constants(name: str) -> list:
    with open(AUTO_C) as f:
        text = f.read()
    m = re.search(r"static const auto_model %s = \{([^}]*)\}" % name, text)
    assert m, f"{name} not found in {AUTO_C}"
    return [float(x) for x in m.group(1).replace("\n", " ").split(",")]


@pytest.fixture(scope="module")
def fitted():
    fit = _fit_module()
    fit_pts, held = fit.points()
    return fit, fit_pts, held


@pytest.mark.parametrize("prec", ["double", "float"])
def test_constants_match_the_fit(fitted, prec):
    fit, fit_pts, _ = fitted
    got = fit.fit([p for p in fit_pts if p["prec"] == prec])
    # auto_model's order: per-system a, b; branch-level c, d, e, f;
    # cell-group g (path), h (trunk), k (levels), i (per cell), j (per row).
    want = list(got["ps"][0]) + list(got["bl"][0]) + list(got["cg"][0])
    code = _c_constants("model_" + prec)
    assert len(code) == len(want)
    for i, (c, w) in enumerate(zip(code, want)):
        # The code keeps 4 significant digits.
        assert c == pytest.approx(w, rel=6e-4), f"{prec} constant {i}: code {c}, fit {w:.5g}"


@pytest.mark.parametrize("prec", ["double", "float"])
def test_fit_quality(fitted, prec):
    """The bounds the code's comment and docs/strategies.md state."""
    fit, fit_pts, _ = fitted
    got = fit.fit([p for p in fit_pts if p["prec"] == prec])
    bounds = {"ps": 0.03, "bl": 0.10, "cg": 0.125 if prec == "double" else 0.17}
    for s, (_, worst, _) in got.items():
        assert worst <= bounds[s], f"{prec} {s}: worst relative error {worst:.3f}"
