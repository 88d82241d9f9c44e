"""neuron_compare.py: the generated mechanisms (host, double) against NEURON running the same .mod files (nrnivmodl): steady states, currents and one step at a grid of voltages and calcium concentrations (ci/nmodl-neuron-check.sh runs it)."""
import ctypes
import json
import math
import os
import re
import shutil
import subprocess
import sys

from neuron import h

ROOT, WORK, NMODL_PY = sys.argv[1], sys.argv[2], sys.argv[3]
MODS = sys.argv[4:]
PREFIX = "hbx_"  # NEURON has its own hh, pas, ExpSyn, Exp2Syn: the copies are renamed
DT = 0.025
# The time after INITIAL at which the currents, the step and the event are
# compared: mechanisms that read t see it (BREAKPOINT at T0 by fcurrent and
# T0 + dt/2 in the step, the SOLVE T0 + dt, NET_RECEIVE the event's time).
T0 = 3.7
BOUND = 1e-12  # relative to max(|NEURON|, floor): the same formulas in double (seen: 3e-15)


class Entry(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p)] + \
        [(n, ctypes.c_int) for n in ("point", "nstate", "nstatevar", "nparam", "nion_in",
                                     "nion_out", "has_state", "has_net_receive")] + \
        [("state_names", ctypes.POINTER(ctypes.c_char_p)),
         ("param_names", ctypes.POINTER(ctypes.c_char_p)),
         ("param_defaults", ctypes.POINTER(ctypes.c_double)),
         ("ion_in_names", ctypes.POINTER(ctypes.c_char_p)),
         ("ion_out_names", ctypes.POINTER(ctypes.c_char_p)),
         ("init", ctypes.c_void_p), ("current", ctypes.c_void_p), ("state", ctypes.c_void_p),
         ("net_receive", ctypes.c_void_p), ("uses_t", ctypes.c_int)]


D = ctypes.POINTER(ctypes.c_double)
F3 = ctypes.CFUNCTYPE(None, D, D, D)
F4 = ctypes.CFUNCTYPE(None, D, D, D, D)
FN = ctypes.CFUNCTYPE(None, ctypes.c_double, ctypes.c_double, D, D)


def arr(values, n=64):
    a = (ctypes.c_double * n)()
    for k, x in enumerate(values):
        a[k] = x
    return a


# 1. Translate and build the host table in double as a shared library.
gen = os.path.join(WORK, "gen")
os.makedirs(gen, exist_ok=True)
subprocess.run([NMODL_PY, os.path.join(ROOT, "apps", "nmodl", "hb_nmodl.py"), "-o", gen,
                "--host-table", os.path.join(gen, "hb_mech_table.inc")] + MODS, check=True)
lib = os.path.join(WORK, "libhbmechs.so")
with open(os.path.join(gen, "table_d.c"), "w") as f:
    f.write('#define HB_DOUBLE 1\n#include "hb_mech_table.inc"\n')
subprocess.run(["cc", "-std=c11", "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-I", gen, "-I",
                os.path.join(ROOT, "apps", "nmodl", "runtime"), os.path.join(gen, "table_d.c"),
                "-o", lib, "-lm"], check=True)
so = ctypes.CDLL(lib)
count = ctypes.c_int.in_dll(so, "hb_mech_table_count_d").value
table = (Entry * count).in_dll(so, "hb_mech_table_d")

# 2. The same files for NEURON, renamed, their currents made RANGE (to read them).
nrn = os.path.join(WORK, "nrn")
shutil.rmtree(nrn, ignore_errors=True)
os.makedirs(nrn)
for path in MODS:
    src = open(path).read()
    src = re.sub(r"\b(SUFFIX|POINT_PROCESS)\s+(\w+)", lambda m: "%s %s%s" % (m.group(1), PREFIX,
                 m.group(2)), src, count=1)
    src = re.sub(r"(NONSPECIFIC_CURRENT|ELECTRODE_CURRENT)\s+([\w, ]+)",
                 lambda m: "%s %s\n RANGE %s" % (m.group(1), m.group(2).strip(),
                                                m.group(2).strip()), src)
    with open(os.path.join(nrn, os.path.basename(path)), "w") as f:
        f.write(src)
subprocess.run(["nrnivmodl"], cwd=nrn, check=True, stdout=subprocess.DEVNULL)
libs = [os.path.join(dp, f) for dp, _, fs in os.walk(nrn) for f in fs if f == "libnrnmech.so"]
h.nrn_load_dll(libs[0])
h.load_file("stdrun.hoc")
h.dt = DT

NEAR = 1e-6  # mV: a step that ends this close to a file's removable 0/0
NEAR_BOUND = 1e-4  # there NEURON's quotient as written keeps about |v - root|/eps digits
worst, checks, failures, nrn_nan = 0.0, 0, 0, []
near_checks, near_worst = 0, 0.0


def compare(what, got, want, floor, near=False):
    global worst, checks, failures, near_checks, near_worst
    if want != want and got == got:
        # NEURON evaluates the file's 0/0 as written (hh.mod at -40 and -55 mV);
        # the generated code has the limit there.
        nrn_nan.append(what)
        return
    err = abs(got - want) / max(abs(want), floor)
    if near:
        # NEURON's (v - r)/(exp((v - r)/k) - 1) at |v - r| ~ 1e-12 cancels
        # (the generated exprelr does not): checked against a looser bound.
        near_checks += 1
        near_worst = max(near_worst, err if err == err else math.inf)
        bound = NEAR_BOUND
    else:
        checks += 1
        bound = BOUND
    if not (err <= bound):
        failures += 1
        if failures <= 20:
            print("FAIL %s: generated %.17g, NEURON %.17g (relative %.3g)" % (what, got, want, err))
    if not near:
        worst = max(worst, err if err == err else math.inf)


GD_DV = 1e-3  # mV: centred difference of NEURON's currents
# error: truncation dv^2/6 times the third derivative of i, rounding eps |i| / dv
G_BOUND, G_FLOOR = 1e-6, 1e-10
g_checks, g_worst, g_fail = 0, 0.0, 0


def nrn_total(e, name, mech, seg, pp, ion_out, v):
    """The mechanism's total current in NEURON at v with its states as they are."""
    seg.v = v
    h.fcurrent()
    if e.point:
        return outward(name, pp.i)
    return sum(getattr(seg, c) for c in ion_out) + \
        sum(getattr(mech, c) for c in info[name]["nonspecific_currents"]) - \
        sum(getattr(mech, c) for c in info[name].get("electrode_currents", []))


def outward(name, i):
    """A point process's i as the membrane counts it: an ELECTRODE_CURRENT's
    (positive inward, NEURON's electrode convention) negated."""
    return -i if info[name].get("electrode_currents") else i


def compare_g(what, got, want):
    global g_checks, g_worst, g_fail
    if want != want:
        return  # NEURON's 0/0 beside a root
    g_checks += 1
    err = abs(got - want) / max(abs(want), G_FLOOR)
    g_worst = max(g_worst, err)
    if not (err <= G_BOUND):
        g_fail += 1
        if g_fail <= 20:
            print("FAIL %s: generated %.17g, NEURON difference quotient %.17g (relative %.3g)" %
                  (what, got, want, err))


ELEMENT = re.compile(r"^(\w+)\[(\d+)\]$")  # an array's element as the library names it, ca[0]


def nrn_has(obj, s):
    m = ELEMENT.match(s)
    return hasattr(obj, m.group(1) if m else s)


def nrn_get(obj, s):
    """obj.s in NEURON, s a variable or an array's element (ca[0])."""
    m = ELEMENT.match(s)
    return getattr(obj, m.group(1))[int(m.group(2))] if m else getattr(obj, s)


def nrn_set(obj, s, value):
    m = ELEMENT.match(s)
    if m:
        getattr(obj, m.group(1))[int(m.group(2))] = value
    else:
        setattr(obj, s, value)


def nrn_state(mech, seg, s):
    """A STATE in NEURON: the mechanism's, or the ion's where the file WRITEs it (cai)."""
    return nrn_get(mech, s) if nrn_has(mech, s) else getattr(seg, s)


info, roots = {}, {}
for fn in os.listdir(gen):
    if fn.endswith(".json"):
        d = json.load(open(os.path.join(gen, fn)))
        info[d["name"]] = d
        roots[d["name"]] = []
        for sing in d["singularities"]:
            for r in sing["v"]:
                try:
                    roots[d["name"]].append(float(r))
                except ValueError:
                    pass  # a root that depends on a parameter (vshift - 38)
# -100..60 mV every 5 mV, and the files' 0/0 points (hh -40, -55; the test
# inputs -38, -43, -80, 0; the L5PC channels -38, -66, -17, -64.4, -27).
voltages = [-100 + 5.0 * k for k in range(33)] + [-40, -55, -38, -43, -80, 0, -66, -17, -64.4,
                                                   -27, -52.5, 7.5]
# Internal calcium for mechanisms that read cai (SK_E2: its Hill function
# around 0.43 uM, and the 1e-7 mM floor) or integrate it (CaDynamics_E2).
CAIS = [1e-8, 5e-5, 1e-4, 4.3e-4, 2e-3, 1e-2]
CAI0 = getattr(h, "cai0_ca_ion", None)  # no ca ion where no file uses it


def companion(sec, name, ion_in):
    """A mechanism that reads an ion current (CaDynamics_E2 reads ica) gets a
    mechanism that writes it in its section, conductances 0.01 S/cm2, so that
    the current it integrates is not zero; the current is read from NEURON.
    Returns each (parameter, mechanism) pair whose name ends in "bar" (a
    conductance or permeability: g...bar, p...bar) with its value."""
    made = []
    for cur in [n for n in ion_in if n.startswith("i")]:
        for o in table:
            outs = [o.ion_out_names[k].decode() for k in range(o.nion_out)]
            if o.name.decode() != name and not o.point and cur in outs:
                oname = PREFIX + o.name.decode()
                sec.insert(oname)
                for k in range(o.nparam):
                    pn = o.param_names[k].decode()
                    if pn.startswith("g") and pn.endswith("bar"):
                        setattr(sec(0.5), "%s_%s" % (pn, oname), 0.01)
                    if pn.endswith("bar"):
                        made.append((pn, oname, getattr(sec(0.5), "%s_%s" % (pn, oname))))
                break
    return made


def companions_on(seg, made, on):
    """The companions' conductances and permeabilities at their values (on)
    or 0, NEURON's currents again: at 0, seg's ion current is the
    mechanism's own, also where it READs that current (cabpump's ica)."""
    for pn, oname, value in made:
        setattr(seg, "%s_%s" % (pn, oname), value if on else 0.0)
    h.fcurrent()
for e in table:
    name = e.name.decode()
    nname = PREFIX + name
    states = [e.state_names[k].decode() for k in range(e.nstatevar)]
    ion_in = [e.ion_in_names[k].decode() for k in range(e.nion_in)]
    ion_out = [e.ion_out_names[k].decode() for k in range(e.nion_out)]
    prm = arr([e.param_defaults[k] for k in range(e.nparam)])
    init, current, state = F3(e.init), F4(e.current), F3(e.state)
    sec = h.Section(name="s_" + name)
    sec.L = sec.diam = math.sqrt(100 / math.pi)  # 100 um2
    pnames = [e.param_names[k].decode() for k in range(e.nparam)]
    if "area" in pnames:  # not 100 um2, NEURON's area of a zero-area node
        sec.L, sec.diam = 7.0, 3.0
    sec.cm = 1e9  # v stays where it is put through one step
    for k, pn in enumerate(pnames):  # NMODL's diam and area: the segment's, as the engine fills them
        if pn == "diam":
            prm[k] = sec.diam
        elif pn == "area":
            prm[k] = sec(0.5).area()
    if e.point:
        pp = getattr(h, nname)(sec(0.5))
        mech = pp
    else:
        sec.insert(nname)
        mech = getattr(sec(0.5), nname)
        pp = None
    if hasattr(h, "usetable_" + nname):
        setattr(h, "usetable_" + nname, 0)  # TABLE: the exact functions, as generated
    seg = sec(0.5)
    made = companion(sec, name, ion_in)
    # Currents the file READs and WRITEs: NEURON's seg.i<ion> is the total,
    # so its own is compared with the companions switched off.
    own = [c for c in ion_out if c in ion_in]
    # Concentrations the file WRITEs without a STATE of that name (cai = ca):
    # kept values, compared with the ion's after the step.
    written = [c for ion in info[name]["ions"] for c in ion["concentrations"] if c not in states]
    cai_in, cai_state = "cai" in ion_in and "cai" not in written, "cai" in states
    for celsius, v0, cai in [(c, v, ca) for c in (6.3, 34.0) for v in voltages
                             for ca in (CAIS if cai_in or cai_state else [None])]:
        h.celsius = celsius
        if cai_in:
            h.cai0_ca_ion = cai  # nothing here writes cai: it stays at this value
            seg.cai = cai
        h.finitialize(v0)
        if cai_in:
            assert seg.cai == cai
        ins = [v0, DT, celsius] + [getattr(seg, n) for n in ion_in] + [h.t]
        st = arr([])
        init(arr(ins), prm, st)
        h.t = T0
        ins[-1] = T0
        for k, s in enumerate(states):
            compare("%s init %s at v %g, %g degC, cai %s" % (name, s, v0, celsius, cai), st[k],
                    nrn_state(mech, seg, s), 1e-6)
        h.fcurrent()
        if own:
            companions_on(seg, made, False)
        out = arr([])
        current(arr(ins), prm, st, out)
        total = 0.0
        for k, c in enumerate(ion_out):
            nv = getattr(seg, c)
            total += nv
            compare("%s %s at v %g" % (name, c, v0), out[2 + k], nv, 1e-9)
        if not e.point:
            for c in info[name]["nonspecific_currents"]:
                total += getattr(mech, c)
            for c in info[name].get("electrode_currents", []):
                total -= getattr(mech, c)
            compare("%s i at v %g" % (name, v0), out[1], total, 1e-9)
        else:
            compare("%s i at v %g" % (name, v0), out[1], outward(name, pp.i), 1e-9)
        # g = di/dv (symbolic here) against NEURON's currents at v0 +- GD_DV
        # (NEURON keeps its own g, a forward difference, internal).
        ip, im = [nrn_total(e, name, mech, seg, pp, ion_out, v0 + sgn * GD_DV) for sgn in (1, -1)]
        compare_g("%s g at v %g, %g degC, cai %s" % (name, v0, celsius, cai), out[0],
                  (ip - im) / (2 * GD_DV))
        seg.v = v0
        h.fcurrent()
        if own:
            companions_on(seg, made, True)
        # one step at v1 from the states of v0 (synapses: from made-up conductances)
        if e.point:
            for k, s in enumerate(states):
                nrn_set(mech, s, 0.01 * (k + 1))
                st[k] = 0.01 * (k + 1)
        if cai_state:
            # the step starts from this cai (INITIAL set its own)
            seg.cai = cai
            st[states.index("cai")] = cai
        v1 = v0 + 13.0
        seg.v = v1
        before = [st[k] for k in range(e.nstate)]
        ion_before = {n: getattr(seg, n) for n in ion_in}
        h.fadvance()
        vnow = seg.v if seg.v == seg.v else v1  # NaN: NEURON's own 0/0 again
        # a concentration the mechanism writes enters its step at the value before it
        ins1 = arr([vnow, DT, celsius] + [ion_before[n] if n in written else getattr(seg, n)
                                          for n in ion_in] + [h.t])
        st1 = arr(before)
        near = any(abs(vnow - r) < NEAR for r in roots[name])
        state(ins1, prm, st1)
        # KINETIC (sparse): the elimination runs in another order than NEURON's
        # sparse solver, so a small state carries rounding of the scheme's
        # total (seen: 1.1e-16 of kin3's 1, half an ulp): floor 1e-3, so
        # 1e-15 absolute.
        sfloor = 1e-3 if info[name]["method"] == "sparse" else 1e-6
        for k, s in enumerate(states):
            compare("%s step %s at v %g -> %g, %g degC, cai %s" % (name, s, v0, v1, celsius, cai),
                st1[k], nrn_state(mech, seg, s), sfloor, near)
        # The RANGE ASSIGNED values the mechanism keeps (kspec's flx from
        # f_flux and b_flux) and the concentrations it writes, after the same
        # step.
        kept = [x["name"] for x in info[name].get("kept", []) if x["from"] == "ASSIGNED"]
        # INITIAL's self-events (net_send) fall due before T0: NEURON's step
        # delivers them to NET_RECEIVE, which may assign kept values; the
        # generated step does not (the engine delivers them: ci/t-compare.sh
        # checks that against NEURON), so those values are not compared.
        if info[name].get("initial_net_send", 0):
            kept = []
        for k in range(e.nstatevar, e.nstate):
            s = e.state_names[k].decode()
            if s in kept and (nrn_has(mech, s) or s in written):
                compare("%s step %s at v %g -> %g, %g degC, cai %s" % (name, s, v0, v1, celsius,
                                                                       cai),
                        st1[k], nrn_state(mech, seg, s), sfloor, near)
        if e.net_receive:
            # An event of weight 0.02 uS at t: NEURON delivers it at the start
            # of the next step, before the currents and the states.
            net = FN(e.net_receive)
            # Made before finitialize, which runs NET_RECEIVE's INITIAL for
            # each NetCon (the table's wrapper: at the connection's first
            # event, with t = 0; its values after the states, from 0).
            nc = h.NetCon(None, pp)
            nc.weight[0] = 0.02
            h.finitialize(v0)
            ins2 = arr([v0, DT, celsius] + [getattr(seg, n) for n in ion_in] + [h.t])
            st2 = arr([])
            init(ins2, prm, st2)
            h.t = T0
            # two events within the step's first half (its start delivers both, each
            # at its own time), the second facilitated by the first where t is read
            nc.event(T0 + 0.004)
            nc.event(T0 + 0.011)
            seg.v = v1
            h.fadvance()
            net(0.02, T0 + 0.004, prm, st2)
            net(0.02, T0 + 0.011, prm, st2)
            vnow = seg.v if seg.v == seg.v else v1
            state(arr([vnow, DT, celsius] + [getattr(seg, n) for n in ion_in] + [h.t]), prm, st2)
            for k, s in enumerate(states):
                compare("%s event then step %s at v %g" % (name, s, v1), st2[k],
                        nrn_state(mech, seg, s), 1e-6)
            nc = None
    h.cai0_ca_ion = CAI0
    print("%s: %d voltages x 2 temperatures%s checked" % (
        name, len(voltages), " x %d cai" % len(CAIS) if cai_in or cai_state else ""))
# The shipped hh.mod against NEURON's own (built-in) hh, usetable_hh = 0: the
# engine's HH is to be validated against that one.
hh = [e for e in table if e.name == b"hh"]
if hh:
    e = hh[0]
    init, current, state = F3(e.init), F4(e.current), F3(e.state)
    sec = h.Section(name="builtin_hh")
    sec.L = sec.diam = math.sqrt(100 / math.pi)
    sec.cm = 1e9
    sec.insert("hh")
    h.usetable_hh = 0
    seg = sec(0.5)
    prm = arr([seg.hh.gnabar, seg.hh.gkbar, seg.hh.gl, seg.hh.el])
    before = checks
    for celsius in (6.3, 34.0):
        h.celsius = celsius
        for v0 in voltages:
            h.finitialize(v0)
            ins = arr([v0, DT, celsius, seg.ena, seg.ek])
            st, out = arr([]), arr([])
            init(ins, prm, st)
            for k, s in enumerate("mhn"):
                compare("hh init %s at v %g against built-in hh" % (s, v0), st[k],
                        getattr(seg.hh, s), 1e-6)
            h.fcurrent()
            current(ins, prm, st, out)
            compare("hh ina at v %g against built-in hh" % v0, out[2], seg.ina, 1e-9)
            compare("hh ik at v %g against built-in hh" % v0, out[3], seg.ik, 1e-9)
            compare("hh il at v %g against built-in hh" % v0, out[1] - out[2] - out[3],
                    seg.hh.il, 1e-9)
            seg.v = v0 + 13.0
            h.fadvance()
            state(arr([seg.v, DT, celsius, seg.ena, seg.ek]), prm, st)
            for k, s in enumerate("mhn"):
                compare("hh step %s at v %g against built-in hh" % (s, v0), st[k],
                        getattr(seg.hh, s), 1e-6)
    print("hh.mod against NEURON's built-in hh (usetable_hh = 0): %d values" % (checks - before))
print("generated against NEURON %s: %d checks, %d failed, largest relative difference %.3g "
      "(bound %g)" % (h.nrnversion(), checks, failures, worst, BOUND))
print("conductances: %d against NEURON's centred difference quotient (dv %g mV), %d failed, "
      "largest relative difference %.3g (bound %g, floor %g S/cm2)" % (
          g_checks, GD_DV, g_fail, g_worst, G_BOUND, G_FLOOR))
if near_checks:
    print("%d values of steps ending within %g mV of a removable 0/0 (NEURON's v moves off the root "
          "by ~1e-12 mV and its quotient loses digits there): largest relative difference %.3g "
          "(bound %g)" % (near_checks, NEAR, near_worst, NEAR_BOUND))
if nrn_nan:
    print("%d values NaN in NEURON and finite here (the files' removable 0/0, e.g. %s)" %
          (len(nrn_nan), nrn_nan[0]))
sys.exit(1 if failures or g_fail else 0)
