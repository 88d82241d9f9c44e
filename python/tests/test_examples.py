"""test_examples.py: the scripts of examples/python run as a user runs them (small sizes, matplotlib's Agg backend) and succeed."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")


def run(script, *args, cwd):
    env = dict(os.environ, MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args], cwd=cwd,
                       env=env, capture_output=True, text=True, timeout=600)
    print(r.stdout, r.stderr)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_solve_batch(tmp_path, dtype):
    out = run("solve_batch.py", "--nsys", "500", "--n", "64", "--dtype", dtype.name,
              cwd=tmp_path)
    assert "OK" in out


def test_neuro_workflow(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "cells.png"
    out = run("neuro_workflow.py", "--cells", "24", "--tstop", "25", "--out", str(png),
              cwd=tmp_path)
    assert "fired" in out and png.stat().st_size > 10000


def test_network(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "net.png"
    out = run("network.py", "--cells", "12", "--fanin", "3", "--tstop", "40", "--parts", "2",
              "--out", str(png), cwd=tmp_path)
    assert "12 cells in 2 part(s), 36 connections" in out and png.stat().st_size > 5000
