#!/usr/bin/env python3
"""myokit_compare.py: Beeler-Reuter 1977, Luo-Rudy 1991 and Decker 2009 from the installed Myokit package, one paced beat in `hinesbatch cardiac` (each backend and precision) against Myokit's own CVODE simulation: resting potential, peak and APD90; with --cv, a 2 cm fiber against Myokit's OpenCL 1-D simulation: conduction velocity; tables, non-zero past the bounds."""
import argparse
import csv
import os
import subprocess
import sys
import time

import myokit
import numpy as np

DATA = os.path.join(os.path.dirname(myokit.__file__), "tests", "data")
# name in the catalogue, Myokit's file, stimulus duration (ms, the files'
# own protocols: Beeler-Reuter's beeler-1977-protocol.mmt, the others'
# [[protocol]] sections).
MODELS = [("br1977", "beeler-1977-model.mmt", 2.0),
          ("lr1991", "lr-1991.mmt", 0.5),
          ("decker2009", "decker-2009.mmt", 0.5)]
START, PERIOD, TMAX = 10.0, 1000.0, 600.0
BOUND_MV, BOUND_APD, BOUND_CV = 1.0, 0.01, 0.02
# Fibers: 200 nodes 0.01 cm apart, sigma 1.2 mS/cm, chi 1400 /cm, Cm 1 uF/cm2
# (Myokit's conductance between neighbours sigma / (chi dx^2) mS/cm2), the
# first 5 nodes paced, CV between nodes 50 and 150 (-30 mV upward crossings).
FIB_N, FIB_DX, FIB_SIGMA, FIB_CHI, FIB_T = 200, 0.01, 1.2, 1400.0, 60.0


def crossing(t, v, level=-30.0):
    i = np.where((v[:-1] < level) & (v[1:] >= level))[0]
    if len(i) == 0:
        return float("nan")
    i = i[0]
    return t[i] + (level - v[i]) / (v[i + 1] - v[i]) * (t[i + 1] - t[i])


def myokit_cv(fname, dur, dt):
    m = myokit.load_model(os.path.join(DATA, fname))
    p = myokit.pacing.blocktrain(period=PERIOD, duration=dur, offset=START)
    s = myokit.SimulationOpenCL(m, p, ncells=FIB_N)
    s.set_step_size(dt)
    s.set_conductance(FIB_SIGMA / (FIB_CHI * FIB_DX * FIB_DX))
    s.set_paced_cells(5)
    vname = m.label("membrane_potential").qname()
    t0 = time.time()
    d = s.run(FIB_T, log=["engine.time", vname], log_interval=dt)
    secs = time.time() - t0
    t = np.array(d["engine.time"])
    a = crossing(t, np.array(d["50." + vname]))
    b = crossing(t, np.array(d["150." + vname]))
    return 100 * FIB_DX / (b - a) * 10, secs


def run_hb(cmd):
    """`hinesbatch cardiac` with its wall time; a failure raises with its message."""
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t0
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode,
                                                   (r.stderr or r.stdout).strip()))
    return r, secs


def hb_cv(exe, name, backend, prec, dt, dur):
    cmd = [exe, "cardiac", "--model", name, "--backend", backend, "--precision", prec,
           "--cells", str(FIB_N), "--fiber", str(FIB_N), "--dx", repr(FIB_DX),
           "--sigma", repr(FIB_SIGMA), "--chi", repr(FIB_CHI), "--dt", repr(dt),
           "--duration", repr(FIB_T), "--stim-start", repr(START), "--stim-duration", repr(dur),
           "--stim-nodes", "5", "--cv-nodes", "50,150", "--record", "none"]
    r, secs = run_hb(cmd)
    for line in r.stdout.splitlines():
        if line.startswith("conduction velocity"):
            return float(line.split()[2]), secs
    raise RuntimeError("no conduction velocity in: " + r.stdout)


def measures(t, v, t_stim):
    """Rest (V at the stimulus onset), peak after it, APD90: time between the up- and downward
    crossings of rest + 0.1 (peak - rest), linearly interpolated."""
    k0 = int(np.searchsorted(t, t_stim - 1e-9)) - 1
    rest = float(v[k0]) if k0 >= 0 else float(v[0])
    after = slice(max(k0, 0), len(v))
    peak = float(np.max(v[after]))
    lvl = rest + 0.1 * (peak - rest)
    up = down = None
    for k in range(max(k0, 0) + 1, len(v)):
        a, b = v[k - 1], v[k]
        if up is None and a < lvl <= b:
            up = t[k - 1] + (lvl - a) / (b - a) * (t[k] - t[k - 1])
        elif up is not None and a >= lvl > b:
            down = t[k - 1] + (a - lvl) / (a - b) * (t[k] - t[k - 1])
            break
    apd = (down - up) if up is not None and down is not None else float("nan")
    return rest, peak, apd


def myokit_run(fname, dur, tol):
    m = myokit.load_model(os.path.join(DATA, fname))
    p = myokit.pacing.blocktrain(period=PERIOD, duration=dur, offset=START)
    s = myokit.Simulation(m, p)
    s.set_tolerance(tol, tol)
    vname = m.label("membrane_potential").qname()
    t0 = time.time()
    d = s.run(TMAX, log=["engine.time", vname], log_interval=0.005)
    secs = time.time() - t0
    return np.array(d["engine.time"]), np.array(d[vname]), secs


def hb_run(exe, name, backend, prec, dt, dur, out):
    cmd = [exe, "cardiac", "--model", name, "--backend", backend, "--precision", prec,
           "--cells", "1", "--dt", repr(dt), "--duration", repr(TMAX), "--stim-start", repr(START),
           "--stim-duration", repr(dur), "--stim-period", repr(PERIOD), "--record", "0",
           "--record-every", "1", "--csv", out]
    r, secs = run_hb(cmd)
    with open(out) as f:
        rows = list(csv.reader(f))[1:]
    t = np.array([float(x[0]) for x in rows])
    v = np.array([float(x[1]) for x in rows])
    # The state at t = 0 is the file's initial value, recorded from the first step on.
    return t, v, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hinesbatch", required=True, help="the hinesbatch program")
    ap.add_argument("--backends", default="serial,openmp,opencl")
    ap.add_argument("--precisions", default="double,float")
    # 0.005 ms: forward Euler on V overshoots the peak by dt x ~140 mV/ms (1.4 mV
    # at 0.01 ms for Luo-Rudy and Decker, 0.7 mV at 0.005; docs/cardiac.md).
    ap.add_argument("--dt", type=float, default=0.005)
    ap.add_argument("--tol", type=float, default=1e-8, help="CVODE's absolute and relative tolerance")
    ap.add_argument("--out", default="myokit-compare")
    ap.add_argument("--models", default=",".join(m[0] for m in MODELS))
    ap.add_argument("--cv", action="store_true",
                    help="also fibers against Myokit's SimulationOpenCL (an OpenCL device: PoCL)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    want = a.models.split(",")
    print("One beat (stimulus at %g ms, %g ms simulated), hinesbatch dt %g ms against Myokit %s "
          "(CVODE, tolerance %g): bounds rest and peak %g mV, APD90 %g%%." %
          (START, TMAX, a.dt, myokit.__version__, a.tol, BOUND_MV, 100 * BOUND_APD))
    print()
    print("| model | run | rest (mV) | peak (mV) | APD90 (ms) | d rest (mV) | d peak (mV) | "
          "d APD90 | time (s) | within |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    bad = 0
    for name, fname, dur in MODELS:
        if name not in want:
            continue
        t, v, secs = myokit_run(fname, dur, a.tol)
        ref = measures(t, v, START)
        print("| %s | Myokit CVODE | %.3f | %.3f | %.2f | | | | %.1f | |" % ((name,) + ref + (secs,)))
        for b in a.backends.split(","):
            for p in a.precisions.split(","):
                out = os.path.join(a.out, "%s-%s-%s.csv" % (name, b, p))
                try:
                    th, vh, hsecs = hb_run(a.hinesbatch, name, b, p, a.dt, dur, out)
                except RuntimeError as e:
                    print("| %s | %s %s | failed: %s |" % (name, b, p, e))
                    bad += 1
                    continue
                got = measures(th, vh, START)
                dr, dp = got[0] - ref[0], got[1] - ref[1]
                da = (got[2] - ref[2]) / ref[2]
                ok = abs(dr) <= BOUND_MV and abs(dp) <= BOUND_MV and abs(da) <= BOUND_APD
                bad += not ok
                print("| %s | hinesbatch %s %s | %.3f | %.3f | %.2f | %+.3f | %+.3f | %+.3f%% | "
                      "%.1f | %s |" % (name, b, p, got[0], got[1], got[2], dr, dp, 100 * da, hsecs,
                                       "yes" if ok else "NO"))
    if a.cv:
        print()
        print("Fibers: %d nodes %g cm apart, sigma %g mS/cm, chi %g /cm, first 5 nodes paced; CV "
              "between nodes 50 and 150, dt %g ms in both, against Myokit's SimulationOpenCL "
              "(forward Euler, explicit diffusion); bound %g%%." %
              (FIB_N, FIB_DX, FIB_SIGMA, FIB_CHI, a.dt, 100 * BOUND_CV))
        print()
        print("| model | run | CV (m/s) | d CV | time (s) | within |")
        print("|---|---|---|---|---|---|")
        for name, fname, dur in MODELS:
            if name not in want:
                continue
            ref, secs = myokit_cv(fname, dur, a.dt)
            print("| %s | Myokit OpenCL | %.4f | | %.1f | |" % (name, ref, secs))
            for b in a.backends.split(","):
                for p in a.precisions.split(","):
                    try:
                        cv, hsecs = hb_cv(a.hinesbatch, name, b, p, a.dt, dur)
                    except RuntimeError as e:
                        print("| %s | %s %s | failed: %s |" % (name, b, p, e))
                        bad += 1
                        continue
                    d = (cv - ref) / ref
                    ok = abs(d) <= BOUND_CV
                    bad += not ok
                    print("| %s | hinesbatch %s %s | %.4f | %+.2f%% | %.1f | %s |" %
                          (name, b, p, cv, 100 * d, hsecs, "yes" if ok else "NO"))
    sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
