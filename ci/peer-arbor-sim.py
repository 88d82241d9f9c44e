"""peer-arbor-sim.py: Arbor (PyPI arbor) against `hinesbatch simulate` on N copies of one SWC neuron: compartment-steps/s on 1 and 2 threads, OpenMP under load, soma spikes compared.

Run it through ci/peer-arbor-sim.sh (makes the virtual environment with
arbor==0.12.2 and builds the program), or with a Python that imports arbor:

    python ci/peer-arbor-sim.py --hinesbatch build/apps/hinesbatch [--cells 400] [--out FILE.md]

Both simulators import the SWC file themselves. hinesbatch cuts it into
NEURON-style sections of --nseg compartments each (`--policy section --nseg
N`); Arbor discretises its own morphology (arbor.load_swc_neuron, NEURON's
reading of the soma) by its own CV policy, the one of those tried
(fixed-per-branch K with and without interior forks, max-extent L) whose CV
count is nearest hinesbatch's compartment count. Same model on both: HH
(NEURON's hh.mod, Arbor's hh) in the soma (SWC type 1), a passive leak
(0.0003 S/cm^2, -54.3 mV) elsewhere, cm 1 uF/cm^2, Ra 35.4 ohm cm, 6.3 degC,
v_init -65 mV, ena 50 mV, ek -77 mV, dt 0.025 ms, a current clamp at the
soma centre (Arbor: the SWC root) whose amplitude runs from amp*(1-spread) (cell 0) to
amp*(1+spread) (the last cell), spikes at -20 mV at the soma.

Timed: Arbor's simulation.run (not the model build), hinesbatch's own
performance line (hb_sim_run, --no-split), each the best of --reps runs.
Compartment-steps = compartments (CVs) x cells x steps.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import arbor
from arbor import units as U

PERF = re.compile(r"performance: ([0-9.e+]+) compartment-steps/s \((\d+) compartments x (\d+) steps in ([0-9.]+) s\)")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--hinesbatch", default=os.path.join(here, "..", "build", "apps", "hinesbatch"),
                   help="the program (default build/apps/hinesbatch)")
    p.add_argument("--swc", default=os.path.join(here, "..", "data", "morphologies", "nrn__c91662.swc"),
                   help="the neuron (default data/morphologies/nrn__c91662.swc)")
    p.add_argument("--cells", type=int, default=400)
    p.add_argument("--nseg", type=int, default=5, help="hinesbatch compartments per section (5)")
    p.add_argument("--tstop", type=float, default=50.0)
    p.add_argument("--dt", type=float, default=0.025)
    p.add_argument("--iclamp", default="5,40,1", help="ONSET,DUR,AMP (ms, ms, nA)")
    p.add_argument("--amp-spread", type=float, default=0.5)
    p.add_argument("--reps", type=int, default=1, help="runs per measurement; the best is kept")
    p.add_argument("--no-load", action="store_true", help="skip the runs under load")
    p.add_argument("--load-procs", type=int, default=2, help="busy loops of the load runs (2)")
    p.add_argument("--out", help="also write the report (markdown) here")
    return p.parse_args()


def amps(a, n):
    onset, dur, amp = (float(x) for x in a.iclamp.split(","))
    f = [(c / (n - 1) if n > 1 else 0.5) for c in range(n)]
    return onset, dur, [amp * (1 + a.amp_spread * (2 * x - 1)) for x in f]


# ---- what else ran ----------------------------------------------------------

def cpu_mark():
    """(busy CPU seconds of the whole machine, CPU seconds of this process and
    its finished children, wall seconds)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    busy = (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")  # all but idle, iowait
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return busy, me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, time.perf_counter()


def others(m0, m1):
    """Cores that other processes kept busy on average between two marks."""
    return max(0.0, ((m1[0] - m0[0]) - (m1[1] - m0[1])) / (m1[2] - m0[2]))


# ---- hinesbatch ---------------------------------------------------------------

def run_hinesbatch(a, backend, threads=None, wait_policy=None, spikes_path=None):
    """One `hinesbatch simulate`; returns (rate, compartments per cell, steps,
    seconds, its description, cores other processes used meanwhile)."""
    env = dict(os.environ)
    env["HINESBATCH_BACKEND"] = backend
    for k in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY"):
        env.pop(k, None)
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    if wait_policy:
        env["OMP_WAIT_POLICY"] = wait_policy
    cmd = [a.hinesbatch, "simulate", "--swc", a.swc, "--policy", "section", "--nseg", str(a.nseg),
           "--cells", str(a.cells), "--tstop", str(a.tstop), "--dt", str(a.dt), "--iclamp", a.iclamp,
           "--amp-spread", str(a.amp_spread), "--record", "0", "--no-split"]
    if spikes_path:
        cmd += ["--spikes", spikes_path]
    m0 = cpu_mark()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    busy = others(m0, cpu_mark())
    if out.returncode != 0:
        sys.exit("peer-arbor-sim: %s failed (%d):\n%s%s" % (" ".join(cmd), out.returncode, out.stdout, out.stderr))
    m = PERF.search(out.stdout)
    if not m:
        sys.exit("peer-arbor-sim: no performance line in:\n" + out.stdout)
    rate, comps, steps, secs = float(m.group(1)), int(m.group(2)), int(m.group(3)), float(m.group(4))
    desc = out.stdout.splitlines()[0]
    return rate, comps // a.cells, steps, secs, desc, busy


def read_spikes(path, n):
    spk = [[] for _ in range(n)]
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) != 2 or not parts[0].isdigit():
                continue
            spk[int(parts[0])].append(float(parts[1]))
    return spk


# ---- Arbor --------------------------------------------------------------------

def cv_count(morph, labels, text):
    pol = arbor.cv_policy(text)
    return arbor.cv_data(arbor.cable_cell(morph, arbor.decor(), labels, discretization=pol)).num_cv


def choose_policy(morph, labels, target, nseg):
    """The CV policy whose count is nearest target: fixed-per-branch K (with and
    without interior forks; preferred on a tie), or max-extent L (scanned in
    0.5 um steps, then 0.01 um around the best)."""
    fixed = "(fixed-per-branch %d (all)%s)"
    extent = "(max-extent %.2f (all) (flag-interior-forks))"
    cands = [fixed % (k, f) for k in range(1, 4 * nseg + 1) for f in (" (flag-interior-forks)", "")]
    best = None
    for text in cands + [extent % (0.5 * i) for i in range(1, 801)]:
        n = cv_count(morph, labels, text)
        key = (abs(n - target), 0 if "fixed" in text else 1)
        if best is None or key < best[0]:
            best = (key, text, n)
    if "max-extent" in best[1]:
        mid = float(best[1].split()[1])
        for i in range(-50, 51):
            if mid + 0.01 * i > 0:
                text = extent % (mid + 0.01 * i)
                n = cv_count(morph, labels, text)
                if abs(n - target) < best[0][0]:
                    best = ((abs(n - target), 1), text, n)
    return best[1], best[2]


class Recipe(arbor.recipe):
    def __init__(self, morph, labels, policy, onset, dur, amplitudes):
        arbor.recipe.__init__(self)
        self.morph, self.labels, self.policy = morph, labels, arbor.cv_policy(policy)
        self.onset, self.dur, self.amps = onset, dur, amplitudes
        self.props = arbor.neuron_cable_properties()

    def num_cells(self):
        return len(self.amps)

    def cell_kind(self, gid):
        return arbor.cell_kind.cable

    def global_properties(self, kind):
        return self.props

    def connections_on(self, gid):
        # Arbor 0.12.2 records no spikes in a network without connections
        # (no spike exchange): one self-connection of weight 0 whose delay
        # (1 s) is beyond tstop, so no event is ever delivered and the run is
        # still one epoch; its synapse (one expsyn per cell) costs ~1/1000 of a step.
        return [arbor.connection((gid, "detector"), "never", 0.0, 1000 * U.ms)]

    def cell_description(self, gid):
        d = arbor.decor()
        d.set_property(Vm=-65 * U.mV, cm=0.01 * U.F / U.m2, rL=35.4 * U.Ohm * U.cm,
                       tempK=(6.3 + 273.15) * U.Kelvin)
        d.set_ion("na", rev_pot=50 * U.mV)
        d.set_ion("k", rev_pot=-77 * U.mV)
        # hh carries its own leak (gl 0.0003 S/cm^2, el -54.3 mV): hinesbatch's leak there.
        d.paint("(tag 1)", arbor.density("hh"))
        d.paint("(complement (tag 1))", arbor.density("pas/e=-54.3", g=0.0003))
        # The SWC root: the centre of a 3-point soma (which Arbor makes two
        # branches from the root, so (on-components 0.5 (tag 1)) would be two places).
        centre = "(root)"
        d.place(centre, arbor.i_clamp(self.onset * U.ms, self.dur * U.ms, self.amps[gid] * U.nA))
        d.place(centre, arbor.threshold_detector(-20 * U.mV), "detector")
        d.place(centre, arbor.synapse("expsyn"), "never")
        return arbor.cable_cell(self.morph, d, self.labels, discretization=self.policy)


def run_arbor(a, recipe, threads):
    """One Arbor simulation; returns (seconds of the run, spikes per cell,
    cores other processes used meanwhile)."""
    ctx = arbor.context(threads=threads)
    dd = arbor.partition_load_balance(recipe, ctx)
    sim = arbor.simulation(recipe, ctx, dd)
    sim.record(arbor.spike_recording.all)
    m0 = cpu_mark()
    sim.run(a.tstop * U.ms, a.dt * U.ms)
    m1 = cpu_mark()
    secs = m1[2] - m0[2]
    spk = [[] for _ in range(recipe.num_cells())]
    for (gid, _), t in sim.spikes():
        spk[gid].append(float(t))
    return secs, spk, others(m0, m1)


# ---- load ---------------------------------------------------------------------

class Load:
    """Busy loops beside the runs (started on entry, killed on exit)."""

    def __init__(self, n):
        self.n, self.procs = n, []

    def __enter__(self):
        for _ in range(self.n):
            self.procs.append(subprocess.Popen([sys.executable, "-c", "while 1: pass"]))
        time.sleep(0.5)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()


def loadavg():
    try:
        return open("/proc/loadavg").read().split()[:3]
    except OSError:
        return ["?"] * 3


def main():
    a = parse_args()
    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    onset, dur, amplitudes = amps(a, a.cells)
    tmp = tempfile.mkdtemp(prefix="peer-arbor-")
    spikes_csv = os.path.join(tmp, "hb_spikes.csv")
    best = lambda f: max((f() for _ in range(a.reps)), key=lambda r: r[0])

    # hinesbatch first: its compartment count sets Arbor's target.
    hb_serial = best(lambda: run_hinesbatch(a, "serial", spikes_path=spikes_csv))
    comps, steps = hb_serial[1], hb_serial[2]
    hb_spk = read_spikes(spikes_csv, a.cells)
    shutil.rmtree(tmp)
    rec = arbor.load_swc_neuron(a.swc)
    policy, ncv = choose_policy(rec.morphology, rec.labels, comps, a.nseg)
    recipe = Recipe(rec.morphology, rec.labels, policy, onset, dur, amplitudes)
    work = a.cells * steps

    say("# Arbor %s and hinesbatch simulate, %d copies of %s" % (arbor.__version__, a.cells, os.path.basename(a.swc)))
    say()
    say("- date: %s UTC; host: %s, %d CPUs; load average before: %s" %
        (time.strftime("%Y-%m-%d %H:%M", time.gmtime()), os.uname().nodename, os.cpu_count(), " ".join(loadavg())))
    say("- hinesbatch: %s (`--policy section --nseg %d`): **%d compartments** per cell; %s" %
        (os.path.basename(a.swc), a.nseg, comps, hb_serial[4]))
    say("- Arbor %s: `arbor.load_swc_neuron`, CV policy `%s`: **%d CVs** per cell (%+d, %+.1f%% of hinesbatch's)" %
        (arbor.__version__, policy, ncv, ncv - comps, 100.0 * (ncv - comps) / comps))
    say("- %g ms at dt %g ms = %d steps; clamp %s (onset ms, duration ms, nA) spread +-%g; HH soma, passive elsewhere" %
        (a.tstop, a.dt, steps, a.iclamp, a.amp_spread))
    say("- compartment-steps/s = compartments x %d cells x %d steps / seconds of the run (model build excluded); best of %d" %
        (a.cells, steps, a.reps))
    say()

    rows = []
    arb = {}
    for t in (1, 2):
        secs, spk, busy = min((run_arbor(a, recipe, t) for _ in range(a.reps)), key=lambda r: r[0])
        arb[t] = (ncv * work / secs, spk)
        rows.append(("Arbor %s, %d thread%s" % (arbor.__version__, t, "s" if t > 1 else ""), ncv * work / secs, secs, busy))
    rows.append(("hinesbatch serial", hb_serial[0], hb_serial[3], hb_serial[5]))
    hb = {}
    for t in (1, 2):
        r = best(lambda: run_hinesbatch(a, "openmp", threads=t))
        hb[t] = r[0]
        rows.append(("hinesbatch OpenMP, OMP_NUM_THREADS=%d" % t, r[0], r[3], r[5]))
    say("## Idle (as idle as the shared machine was)")
    say()
    say("| run | compartment-steps/s | run time s | cores other processes kept busy |")
    say("|---|---|---|---|")
    for name, rate, secs, busy in rows:
        say("| %s | %.3g | %.2f | %.2f |" % (name, rate, secs, busy))
    say()
    say("Ratios: hinesbatch OpenMP 2 threads / Arbor 2 threads = **%.2f** (issue 18's target: >= 1.5); "
        "hinesbatch serial / Arbor 1 thread = %.2f; OpenMP 1 thread / Arbor 1 thread = %.2f; "
        "Arbor 2/1 threads = %.2f; hinesbatch OpenMP 2 threads / serial = %.2f." %
        (hb[2] / arb[2][0], hb_serial[0] / arb[1][0], hb[1] / arb[1][0], arb[2][0] / arb[1][0], hb[2] / hb_serial[0]))
    say("Load average after: %s" % " ".join(loadavg()))
    say()

    # Validation: each simulator imported and discretised the SWC itself.
    say("## Soma spikes, hinesbatch serial against Arbor (1 thread)")
    say()
    a_spk = arb[1][1]
    same = sum(len(h) == len(r) for h, r in zip(hb_spk, a_spk))
    diffs = [abs(h[0] - r[0]) for h, r in zip(hb_spk, a_spk) if h and r]
    say("- spikes in all: hinesbatch %d, Arbor %d; cells with the same count: %d of %d" %
        (sum(map(len, hb_spk)), sum(map(len, a_spk)), same, a.cells))
    if diffs:
        say("- first spike time |hinesbatch - Arbor|: mean %.3f ms, largest %.3f ms (over %d cells that both fired)" %
            (sum(diffs) / len(diffs), max(diffs), len(diffs)))
    for c in sorted({0, a.cells // 2, a.cells - 1}):
        say("- cell %d (%.3g nA): hinesbatch %s; Arbor %s" %
            (c, amplitudes[c], ", ".join("%.3f" % t for t in hb_spk[c]) or "none",
             ", ".join("%.3f" % t for t in sorted(a_spk[c])) or "none"))
    say()

    if not a.no_load:
        say("## Under load: %d busy loops (`python3 -c 'while 1: pass'`) beside each run" % a.load_procs)
        say()
        say("| run | compartment-steps/s | / serial under the same load | cores other processes (the loops included) kept busy |")
        say("|---|---|---|---|")
        with Load(a.load_procs):
            s = best(lambda: run_hinesbatch(a, "serial"))
            serial = s[0]
            say("| hinesbatch serial | %.3g | 1 | %.2f |" % (serial, s[5]))
            for pol in (None, "active", "passive"):
                r = best(lambda: run_hinesbatch(a, "openmp", threads=2, wait_policy=pol))
                say("| hinesbatch OpenMP 2 threads, OMP_WAIT_POLICY %s | %.3g | %.2f | %.2f |" %
                    (pol or "unset", r[0], r[0] / serial, r[5]))
            a1 = min((run_arbor(a, recipe, 1) for _ in range(a.reps)), key=lambda r: r[0])
            a2 = min((run_arbor(a, recipe, 2) for _ in range(a.reps)), key=lambda r: r[0])
            say("| Arbor 1 thread | %.3g | - | %.2f |" % (ncv * work / a1[0], a1[2]))
            say("| Arbor 2 threads | %.3g | %.2f of Arbor 1 thread | %.2f |" % (ncv * work / a2[0], a1[0] / a2[0], a2[2]))
            during = loadavg()
        say()
        say("Load average at the end of the loaded runs: %s" % " ".join(during))
        say("Load average after: %s" % " ".join(loadavg()))

    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
