"""test_translator.py: the NMODL translator (apps/nmodl): shipped files accepted, refusals with file:line:column, cnexp detection, singularities, generated text (pytest, or run as a script)."""
import os
import subprocess
import sys
import tempfile

import sympy

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "apps", "nmodl"))

from hb_nmodl import NmodlError, Unsupported, load, loads  # noqa: E402
from hb_nmodl.codegen import describe, generate  # noqa: E402
from hb_nmodl.model import V  # noqa: E402
from hb_nmodl.symfuncs import Exprelr  # noqa: E402

MECHS = os.path.join(ROOT, "data", "mechanisms")
SHIPPED = ["pas", "hh", "expsyn", "exp2syn"]
L5PC_MODS = os.path.join(ROOT, "data", "models", "l5pc", "mod")

MINIMAL = """NEURON { SUFFIX t RANGE a }
PARAMETER { a = 1 }
ASSIGNED { v (mV) }
"""


def refusal(src, what_part, line, col, cls=Unsupported):
    """src must fail with cls at line:col, the message containing what_part."""
    try:
        loads(src, "x.mod")
    except cls as e:
        assert (e.file, e.line, e.col) == ("x.mod", line, col), str(e)
        assert str(e).startswith("x.mod:%d:%d: " % (line, col)), str(e)
        assert what_part in str(e), str(e)
        return e
    raise AssertionError("accepted: %r" % src)


def test_shipped_files_translate():
    for name in SHIPPED:
        mech = load(os.path.join(MECHS, name + ".mod"))
        text = generate(mech, name + ".mod")
        for fn in ("init", "current", "state"):
            assert "hb_mech_%s_%s" % (mech.name, fn) in text
        assert mech.warnings == []


def test_shapes():
    hh = load(os.path.join(MECHS, "hh.mod"))
    assert hh.kind == "density" and hh.states == ["m", "h", "n"]
    assert hh.param_names == ["gnabar", "gkbar", "gl", "el"]
    assert hh.ion_inputs == ["ena", "ek"] and hh.ion_currents == ["ina", "ik"]
    assert hh.method == "cnexp" and hh.state_method == "cnexp"
    syn = load(os.path.join(MECHS, "exp2syn.mod"))
    assert syn.kind == "point" and syn.states == ["A", "B"]
    # factor (ASSIGNED, set in INITIAL, read in NET_RECEIVE) and tau1 (a
    # PARAMETER INITIAL clamps) are kept between calls.
    assert syn.store == ["factor", "tau1"]
    d = describe(syn, "exp2syn.mod")
    assert d["net_receive"] and [p["name"] for p in d["parameters"]] == ["tau1", "tau2", "e"]
    assert load(os.path.join(MECHS, "pas.mod")).solve is None


def test_refusals():
    refusal(MINIMAL + "VERBATIM\n int x; \nENDVERBATIM\n", "unsupported VERBATIM", 4, 1)
    solved = MINIMAL + "STATE { c o }\nBREAKPOINT { SOLVE k METHOD sparse }\nKINETIC k {\n"
    refusal(solved + " COMPARTMENT i, 2 { c o }\n ~ c <-> o (1, 1)\n}\n",
            "c in COMPARTMENT i, ...: not an array", 7, 21, NmodlError)
    refusal(MINIMAL + "STATE { c }\nDERIVATIVE k {\n COMPARTMENT 2 { c }\n c' = -c\n}\n",
            "unsupported COMPARTMENT statement outside a KINETIC block", 6, 2)
    refusal(solved + " LOCAL w\n w = 2\n COMPARTMENT w { c }\n ~ c <-> o (1, 1)\n}\n",
            "unsupported a COMPARTMENT volume that reads LOCAL w", 9, 14)
    refusal(solved + " COMPARTMENT 1 + c { o }\n ~ c <-> o (1, 1)\n}\n",
            "unsupported a COMPARTMENT volume that depends on a STATE", 7, 2)
    refusal(solved + " COMPARTMENT 2 { c zz }\n ~ c <-> o (1, 1)\n}\n",
            "unknown name zz", 7, 20, NmodlError)
    refusal(solved + " ~ c <-> zz (1, 1)\n}\n", "unknown name zz", 7, 10, NmodlError)
    refusal(solved + " COMPARTMENT 2 { c }\n COMPARTMENT 3 { o c }\n ~ c <-> o (1, 1)\n}\n",
            "c in a second COMPARTMENT", 8, 20, NmodlError)
    refusal(MINIMAL + "STATE { c o }\nBREAKPOINT { SOLVE k METHOD cnexp }\nKINETIC k {\n"
            " ~ c <-> o (1, 1)\n}\n", "unsupported SOLVE of a KINETIC block with METHOD cnexp", 5, 29)
    refusal(MINIMAL + "STATE { c o }\nKINETIC k {\n ~ c -> o (1)\n}\n", "expected '<->' or '<<'", 6, 6,
            NmodlError)
    refusal(MINIMAL + "STATE { c o }\nDERIVATIVE k {\n ~ c <-> o (1, 1)\n}\n",
            "unsupported reaction statement '~' outside a KINETIC block", 6, 2)
    for method in ("adrunge", "sparse", "runge"):
        e = refusal(MINIMAL + "STATE { x }\nBREAKPOINT {\n  SOLVE s METHOD %s\n}\n"
                    "DERIVATIVE s { x' = -x }\n" % method,
                    "unsupported METHOD %s" % method, 6, 18)
        assert e.exit_code == 2
    refusal(MINIMAL + "FOO { }\n", "unsupported block FOO", 4, 1)
    refusal(MINIMAL + "FUNCTION_TABLE tab(v)\n", "unsupported FUNCTION_TABLE", 4, 1)
    refusal("NEURON { SUFFIX t\n  POINTER p }\n", "unsupported POINTER", 2, 3)
    refusal(MINIMAL + "INITIAL {\n  a2 = 3\n}\n", "assignment to undeclared a2", 5, 3, NmodlError)
    refusal(MINIMAL + "INITIAL {\n  t = 3\n}\n", "unsupported assignment to t (the simulation "
            "time is read-only", 5, 3)
    refusal(MINIMAL + "ASSIGNED { k }\nNET_RECEIVE(w) {\n  k = w\n  t = k\n}\n",
            "unsupported assignment to t", 7, 3)
    refusal(MINIMAL + "PROCEDURE p() {\n  t = 0\n}\nINITIAL { p() }\n",
            "unsupported assignment to t", 5, 3)
    refusal(MINIMAL + "INITIAL {\n  celsius = 3\n}\n", "unsupported assignment to celsius", 5, 3)
    refusal(MINIMAL + "INITIAL {\n  LOCAL q\n  q = 1 +\n}\n", "expected an expression", 7, 1,
            NmodlError)
    refusal(MINIMAL + "INITIAL {\n  LOCAL q\n  q = 2 * 1e999\n}\n", "number 1e999 does not fit", 6, 11,
            NmodlError)
    refusal(MINIMAL + "NET_RECEIVE(w, w) { }\n", "NET_RECEIVE names an argument twice", 4, 1,
            NmodlError)
    refusal(MINIMAL + "INITIAL { net_send(1, 2) }\n", "unsupported net_send in a density mechanism",
            4, 11)
    refusal(MINIMAL + "STATE { g }\nNET_RECEIVE(w) {\n  INITIAL { g = 0 }\n}\n",
            "unsupported assignment to g in NET_RECEIVE's INITIAL", 6, 13)
    refusal(MINIMAL + "STATE { g }\nNET_RECEIVE(w) {\n  g = g + w*v\n}\n",
            "unsupported use of v in NET_RECEIVE", 6, 13)
    refusal(MINIMAL.replace("RANGE a", "RANGE a NONSPECIFIC_CURRENT i") +
            "ASSIGNED { i }\nBREAKPOINT {\n  i = a*dt\n}\n",
            "unsupported use of dt in BREAKPOINT", 6, 9)
    # dt where init() does not receive it: refused where it reaches a state,
    # at its first use; a value computed from it and never used is fine.
    refusal(MINIMAL + "STATE { x }\nASSIGNED { q }\nPROCEDURE r() {\n  q = 2*dt\n}\n"
            "INITIAL {\n  r()\n  x = q\n}\n", "unsupported use of dt in r (INITIAL)", 7, 9)
    dead = loads(MINIMAL + "STATE { x }\nASSIGNED { q tinc }\nPROCEDURE r() {\n  q = 3\n"
                 "  tinc = -dt*a\n}\nINITIAL {\n  r()\n  x = q\n}\n", "x.mod")
    assert dead.init_out["x"] == 3
    refusal(MINIMAL + "ASSIGNED { k }\nBREAKPOINT {\n  k = k + 1\n}\n",
            "BREAKPOINT assigns k, which is kept", 6, 3)
    # The geometry: assignment to diam or area is refused.
    for geo in ("diam", "area"):
        refusal(MINIMAL + "ASSIGNED { %s }\nINITIAL {\n  %s = 1\n}\n" % (geo, geo),
                "unsupported assignment to %s" % geo, 6, 3)


def test_diam_is_a_geometry_parameter():
    """diam and area, declared as NEURON needs, are read-only parameters the engine fills."""
    # The files' defaults (2) are not the engine's: it fills them itself (500 um and
    # pi 500 100 um2, a new NEURON section's, hold only for the generated functions alone).
    for geo, units, default in (("diam", "um", 500.0), ("area", "um2", 157079.63267948966)):
        for decl in ("ASSIGNED { %s (%s) }" % (geo, units),
                     "PARAMETER { %s = 2 (%s) }" % (geo, units)):
            m = loads(MINIMAL + decl + "\nSTATE { x }\nINITIAL {\n  x = a/%s\n}\n" % geo,
                      "x.mod")
            assert m.param_names[-1] == geo and geo not in m.assigned_names
            d = [p for p in describe(m, "x.mod")["parameters"] if p["name"] == geo]
            assert d == [{"name": geo, "default": default, "units": units, "min": None,
                          "max": None, "geometry": True}]
            pa, pd = sympy.Symbol("p_a", real=True), sympy.Symbol("p_" + geo, real=True)
            assert m.init_out["x"] == pa / pd
            assert "p_%s = prm[%d]" % (geo, len(m.param_names) - 1) in generate(m, "x.mod")
        # Without a declaration (NEURON refuses it too), and never written.
        refusal(MINIMAL + "ASSIGNED { i (mA/cm2) }\nBREAKPOINT {\n  i = a/%s\n}\n" % geo,
                "use of %s without declaring it (ASSIGNED { %s (%s) }" % (geo, geo, units),
                6, 9, NmodlError)
        refusal(MINIMAL + "ASSIGNED { %s (%s) }\nINITIAL {\n  %s = 1\n}\n" % (geo, units, geo),
                "unsupported assignment to %s" % geo, 6, 3)
        # A declaration alone still gives the parameter (the engine fills it).
        assert loads(MINIMAL + "ASSIGNED { %s (%s) }\n" % (geo, units),
                     "x.mod").param_names[-1] == geo
    both = loads(MINIMAL + "ASSIGNED { area (um2) diam (um) }\n", "x.mod")
    assert both.param_names[-2:] == ["diam", "area"]


def test_numbers_with_units():
    """`10 (degC)` in an expression is the number 10 (the units are documentation)."""
    m = loads(MINIMAL + "STATE { x }\nASSIGNED { celsius (degC) }\nINITIAL {\n"
              "  x = 3^((celsius - 6.3 (degC))/(10 (degC))) + 1 (ms)/(2 (/ms))\n}\n", "x.mod")
    c = sympy.Symbol("celsius", real=True)
    want = sympy.Integer(3) ** ((c - sympy.Float("6.3")) / 10) + sympy.Rational(1, 2)
    got = m.init_out["x"]
    for cv in (6.3, 22.0, 37.0):
        assert abs(float(got.subs(c, cv)) - float(want.subs(c, cv))) < 1e-12
    refusal(MINIMAL + "INITIAL {\n  a = 2 (mV\n}\n", "unclosed '(' of units", 5, 9, NmodlError)


def test_printf_is_ignored():
    """printf statements (NEURON prints; the library never does) leave the model as without them."""
    body = "STATE { x }\nINITIAL {\n  x = a + 1\n%s}\n"
    plain = loads(MINIMAL + body % "", "x.mod")
    said = loads(MINIMAL + body % '  printf("x = %g, \\"a\\" %g\\n", x, a)\n'
                 '  if (x > 2) { printf("big\\n") }\n', "x.mod")
    assert said.init_out == plain.init_out
    refusal(MINIMAL + 'INITIAL {\n  printf("x\n}\n', "unclosed string", 5, 10, NmodlError)
    refusal(MINIMAL + "INITIAL {\n  printf(a)\n}\n", "printf takes a format string first", 5, 3,
            NmodlError)
    refusal(MINIMAL + 'INITIAL {\n  a = "x"\n}\n', "expected an expression", 5, 7, NmodlError)
    refusal(MINIMAL + 'STATE { x }\nINITIAL {\n  x = fabs("x")\n}\n',
            "a string where a number belongs", 6, 12, NmodlError)


def test_kinetic_flux_is_explicit():
    """`~ cai << (flux)` is in the right-hand side only, as NEURON's sparse solver has it:
    a flux that depends on the states (a pump) enters at the step's start, and the
    otherwise linear scheme takes one step, unclamped (fully implicit differs by 1e-6)."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    mech = load(os.path.join(TEST_MODS, "kpump.mod"))
    fn = build(mech)["state"]
    c0, b0, dt, ica = sympy.Rational(1, 10**4), sympy.Rational(2, 10**4), sympy.Rational(1, 40), \
        sympy.Rational(-1, 1000)
    kp, kf, kb = sympy.Rational(3, 10), sympy.Rational(1, 5), sympy.Rational(1, 10)
    vals = {sympy.Symbol("s_cai", real=True): c0, sympy.Symbol("s_bca", real=True): b0, DT: dt,
            sympy.Symbol("ica", real=True): ica, sympy.Symbol("p_kp", real=True): kp,
            sympy.Symbol("p_kf", real=True): kf, sympy.Symbol("p_kb", real=True): kb}
    got = _run_function(fn, vals)
    flux = -kp * (c0 - sympy.Rational(5, 10**5)) - ica * 50
    A = sympy.Matrix([[-kf, kb], [kf, -kb]])
    want = (sympy.eye(2) - dt * A).LUsolve(sympy.Matrix([c0 + dt * flux, b0]))
    implicit = (sympy.eye(2) - dt * (A - sympy.Matrix([[kp, 0], [0, 0]]))).LUsolve(
        sympy.Matrix([c0 + dt * (flux + kp * c0), b0]))
    assert abs(implicit[0] - want[0]) > 1e-8
    for r in range(2):
        assert abs(got["st[%d]" % r] - want[r]) < 1e-25, (r, got, want)


def test_unit_constants():
    """A UNITS constant `NAME = (unit) (unit)` is the first unit in the second's: the values
    NEURON 9.0.2's nocmodl wrote for the same lines (kilocoulombs was read as coulombs once,
    a GHK current 1000 times off)."""
    nocmodl = {("faraday", "coulomb"): 96485.33212331001, ("faraday", "coulombs"): 96485.33212331001,
               ("faraday", "coul"): 96485.33212331001, ("faraday", "kilocoulombs"): 96.48533212331002,
               ("faraday", "millicoulomb"): 96485332.12331001, ("k-mole", "joule/degC"): 8.31446261815324,
               ("R", "joule/degC"): 8.31446261815324, ("k-mole", "millijoule/degC"): 8314.462618153239,
               ("e", "coulomb"): 1.602176634e-19, ("k", "joule/degC"): 1.380649e-23,
               ("pi", "1"): 3.141592653589793}
    for (a, b), want in nocmodl.items():
        mech = loads(MINIMAL + "UNITS { K = (%s) (%s) }\n" % (a, b), "u.mod")
        got = float(mech.constants["K"])
        assert abs(got - want) <= 5e-16 * abs(want), (a, b, got, want)  # an ulp or two
    refusal(MINIMAL + "UNITS {\n  K = (furlong) (coulomb)\n}\n", "unsupported unit constant (furlong)",
            5, 7)
    # A file's own unit definitions, for names the table lacks (NEURON 9.0.2 wrote
    # 0x1.0a1013e8990bep+3 and 0x1.0624dd2f1a9fcp-10 for these lines); a name the table
    # has keeps its value.
    mech = loads(MINIMAL + "UNITS { (degK) = (kelvin) (bigu) = (1000 um) (mM) = (milli/liter)\n"
                 "  R = (k-mole) (joule/degK) Q = (bigu) (meter) F = (faraday) (kilocoulombs) }\n",
                 "d.mod")
    assert float(mech.constants["R"]) == float.fromhex("0x1.0a1013e8990bep+3")
    assert float(mech.constants["Q"]) == float.fromhex("0x1.0624dd2f1a9fcp-10")
    assert float(mech.constants["F"]) == 96.48533212331002
    refusal(MINIMAL + "UNITS {\n  (a) = (b) (b) = (a)\n  K = (a) (1)\n}\n",
            "unsupported unit constant (a)", 6, 7)
    # A zero in a denominator (found by test_mutated_files_fail_cleanly, HB_TEST_SEED=82682206)
    refusal(MINIMAL + "UNITS {\n  K = (/0faraday) (coulomb)\n}\n",
            "unsupported unit constant (/0faraday)", 5, 7)


def test_branch_of_celsius_alone_and_crlf():
    """An if/else whose last branch is a value of celsius alone (`else { tau = 1/q10 }`)
    translates (the Q10 hoisting once took the branch's (value, condition) pair for a
    value: an internal error); CRLF line ends, `5.e-3`, `1E+0`, a FUNCTION's TABLE and a
    PROCEDURE without arguments are read as NEURON reads them."""
    src = ("NEURON { SUFFIX q RANGE a }\r\nPARAMETER { a = 5.e-3  b = 1E+0 }\r\n"
           "ASSIGNED { v (mV) celsius (degC) tau (ms) }\r\nSTATE { x }\r\n"
           "BREAKPOINT { SOLVE s METHOD cnexp }\r\nINITIAL { x = f(v) }\r\n"
           "DERIVATIVE s { LOCAL q\r\n  q = 3^((celsius - 6.3)/10)\r\n"
           "  if (v < -50) { tau = 5 } else { tau = 1/q }\r\n  r()\r\n"
           "  x' = (f(v) - x)/tau\r\n}\r\nPROCEDURE r() { }\r\n"
           "FUNCTION f(u (mV)) {\r\n  TABLE DEPEND a FROM -100 TO 100 WITH 200\r\n"
           "  f = b/(1 + exp(-(u + 40)*a))\r\n}\r\n")
    mech = loads(src, "q.mod")
    assert mech.param_names == ["a", "b"] and mech.constants == {}
    assert [float(sympy.Rational(p.default)) for p in mech.params] == [0.005, 1.0]
    text = generate(mech, "q.mod")
    assert "hb_mech_q_tconst" in text and "tc[0]" in text
    generate(load(os.path.join(TEST_MODS, "mix.mod")), "mix.mod")


def test_euler_state_discontinuity_flag():
    """METHOD euler is NEURON's forward Euler (every derivative at the old states);
    NET_RECEIVE's state_discontinuity(x, value) is x = value and its flag is 0."""
    from hb_nmodl.model import DT, WEIGHT
    from hb_nmodl.numerics import build
    fns = build(load(os.path.join(TEST_MODS, "eul.mod")))
    g, s = sympy.Symbol("s_g", real=True), sympy.Symbol("s_s", real=True)
    tau, kd = sympy.Symbol("p_tau", real=True), sympy.Symbol("p_kd", real=True)
    vals = {g: sympy.Rational(1, 50), s: sympy.Rational(3, 10), DT: sympy.Rational(1, 40), tau: 3,
            kd: sympy.Rational(1, 2)}
    got = _run_function(fns["state"], vals)
    dt = vals[DT]
    assert abs(got["st[0]"] - (vals[g] - dt * vals[g] / 3)) < 1e-25
    ds = (1 - vals[s]) * sympy.Rational(5, 100) - vals[s] ** 2 * vals[kd] / 10
    assert abs(got["st[1]"] - (vals[s] + dt * ds)) < 1e-25
    ev = _run_function(fns["net_receive"], {g: vals[g], WEIGHT: sympy.Rational(1, 100)})
    assert abs(ev["st[0]"] - sympy.Rational(3, 100)) < 1e-25


def test_cli_exit_codes():
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "bad.mod")
        with open(bad, "w") as f:
            f.write(MINIMAL + "STATE { x }\nBREAKPOINT {\n  SOLVE s METHOD runge\n}\n"
                    "DERIVATIVE s { x' = -x }\n")
        cmd = [sys.executable, os.path.join(ROOT, "apps", "nmodl", "hb_nmodl.py"), "-o", d]
        r = subprocess.run(cmd + [bad], capture_output=True, text=True)
        assert r.returncode == 2 and "bad.mod:6:18: unsupported METHOD runge" in r.stderr
        with open(bad, "w") as f:
            f.write(MINIMAL + "INITIAL { a2 = }\n")
        r = subprocess.run(cmd + [bad], capture_output=True, text=True)
        assert r.returncode == 1 and "bad.mod:4:" in r.stderr
        r = subprocess.run(cmd + [os.path.join(MECHS, "hh.mod")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert os.path.exists(os.path.join(d, "hh.cl")) and os.path.exists(os.path.join(d, "hh.json"))


def test_accepted_constructs():
    src = """TITLE all of it
COMMENT
  anything : here
ENDCOMMENT
UNITS { (mV) = (millivolt)  FARADAY = (faraday) (coulomb) }
NEURON {
  SUFFIX kx
  USEION k READ ek WRITE ik VALENCE 1 REPRESENTS CHEBI:29103
  RANGE gbar  GLOBAL q
  THREADSAFE
  REPRESENTS NCIT:C17145  : a bare term, as nocmodl reads it (':' is no comment there)
  REPRESENTS [NCIT:C17146]
}
INDEPENDENT { t FROM 0 TO 1 WITH 1 (ms) }
PARAMETER { gbar = .01 (S/cm2) <0,1e9>  q = 2  celsius = 6.3 (degC) v (mV) }
STATE { n FROM 0 TO 1 }
ASSIGNED { ik (mA/cm2) ninf ntau (ms) ek (mV) }
BREAKPOINT { SOLVE st METHOD derivimplicit  ik = gbar*n^4*(v - ek) }
INITIAL { rates(v)  n = ninf }
DERIVATIVE st { rates(v)  n' = (ninf - n)/ntau }
PROCEDURE rates(v (mV)) {
  LOCAL a
  TABLE ninf, ntau DEPEND celsius FROM -100 TO 100 WITH 200
  UNITSOFF
  a = vt(v + 30, 9)
  if (v > 0 && !(q < 1)) { ntau = 1 } else if (v > -50) { ntau = 2 } else { ntau = 3 }
  ninf = a / (a + 1)
  UNITSON
}
FUNCTION vt(x, y) {
  if (fabs(x/y) < 1e-6) { vt = y*(1 - x/y/2) } else { vt = x/(1 - exp(-x/y)) }
}
"""
    mech = loads(src, "kx.mod")
    # An ontology term needs a word or a closed bracket on its line.
    refusal("NEURON { SUFFIX t REPRESENTS [NCIT:C1\n] }", "unclosed '['", 1, 30, NmodlError)
    refusal("NEURON { SUFFIX t REPRESENTS", "without an ontology term", 1, 29, NmodlError)
    assert mech.method == "derivimplicit" and mech.param_names == ["gbar", "q"]
    assert mech.ion_inputs == ["ek"]  # celsius and v are inputs, not parameters
    assert any(abs(float(r) + 30) < 1e-12 for s in mech.singularities for r in s.roots)
    generate(mech, "kx.mod")


def test_solve_reads_breakpoint_values():
    """NEURON runs BREAKPOINT before SOLVE: a DERIVATIVE may integrate the channel's own ica."""
    from hb_nmodl.numerics import build
    src = """NEURON { SUFFIX selfca USEION ca WRITE ica RANGE pbar }
PARAMETER { pbar = 1e-4 depth = 0.1 taur = 100 cainf = 1e-4 }
ASSIGNED { v ica }
STATE { m cai }
BREAKPOINT { SOLVE states METHOD cnexp  ica = pbar*m*(v - 120) }
INITIAL { m = 0.1 cai = cainf }
DERIVATIVE states {
  m' = (1/(1+exp(-(v+20)/5)) - m)/2
  cai' = -ica/(2*96485*depth) + (cainf - cai)/taur
}
"""
    mech = loads(src, "selfca.mod")
    assert mech.store == [] and mech.state_method == "cnexp"
    fn = build(mech)["state"]
    cai = dict(fn.writes)["st[1]"]
    assert cai.has(sympy.Symbol("p_pbar", real=True)) and cai.has(V)


def test_time_t():
    """t is read in every block, at NEURON's times (docs/mechanisms.md, The simulation time t):
    each function receives it; BREAKPOINT's assignments that the SOLVE reads see t - dt/2
    (nrn_cur at the step's middle, nrn_state at its end); NET_RECEIVE's is the event's time;
    a mechanism without t keeps its signatures."""
    from hb_nmodl.model import DT, TIME
    from hb_nmodl.numerics import build
    mech = load(os.path.join(TEST_MODS, "tdrive.mod"))
    assert mech.uses_t and mech.store == [] and mech.state_method == "cnexp"
    fns = build(mech)
    init = dict(fns["init"].writes)["st[0]"]
    assert init.has(TIME)
    st = dict(fns["state"].writes)
    a, b = st["st[0]"], st["st[1]"]
    # a' = (wave(t) - a)/tau at the step's end; b' = (ph - b)/tau with ph from BREAKPOINT
    vals = {sympy.Symbol("p_period", real=True): 5, sympy.Symbol("p_tau", real=True): 2,
            sympy.Symbol("p_amp", real=True): 1, sympy.Symbol("s_a", real=True): 0,
            sympy.Symbol("s_b", real=True): 0, DT: sympy.Rational(1, 40),
            TIME: sympy.Rational(7, 10)}
    decay = 1 - sympy.exp(-sympy.Rational(1, 80))
    twopi = sympy.Rational("6.283185307179586")  # the file's CONSTANT
    want_a = decay * (sympy.Rational(1, 2) + sympy.cos(twopi * sympy.Rational(7, 10) / 5) / 2)
    want_b = decay * sympy.sin(twopi * (sympy.Rational(7, 10) - sympy.Rational(1, 80)) / 5)
    assert abs(sympy.N(a.subs(vals) - want_a, 30)) < 1e-25
    assert abs(sympy.N(b.subs(vals) - want_b, 30)) < 1e-25
    cur = dict(fns["current"].writes)
    assert any(isinstance(e, sympy.Basic) and e.has(TIME) for e in cur.values())
    text = generate(mech, "tdrive.mod")
    for f in ("init", "current", "currents"):
        assert "hb_mech_tdrive_%s)(const real v, const real celsius, const real t," % f in text
    assert "hb_mech_tdrive_state)(const real v, const real dt, const real celsius, " \
        "const real t," in text
    assert describe(mech, "tdrive.mod")["reads_t"] is True
    fac = load(os.path.join(TEST_MODS, "tfac.mod"))
    assert fac.uses_t and fac.store == ["f", "tlast"]
    nr = dict(build(fac)["net_receive"].writes)
    assert nr["st[2]"] == TIME  # tlast = t: the event's delivery time
    assert "hb_mech_TFac_net_receive)(const real weight, const real t, const real *prm" in \
        generate(fac, "tfac.mod")
    # t in a FUNCTION reached from NET_RECEIVE, and a LOCAL named t shadows it
    src = ("NEURON { POINT_PROCESS P }\nASSIGNED { k }\nSTATE { g }\n"
           "FUNCTION age(x) { age = t - x }\nNET_RECEIVE(w) {\n  g = g + w * age(k)\n  k = t\n}\n")
    assert loads(src, "p.mod").uses_t
    src = MINIMAL + "ASSIGNED { k }\nINITIAL {\n  LOCAL t\n  t = 2\n  k = t\n}\n"
    m = loads(src, "x.mod")
    assert not m.uses_t
    hh = load(os.path.join(MECHS, "hh.mod"))
    assert not hh.uses_t and "const real t," not in generate(hh, "hh.mod")
    assert "reads_t" not in describe(hh, "hh.mod")


def test_breakpoint_cache_of_celsius():
    """Module LOCALs that only BREAKPOINT writes and reads before writing, as a cache of
    celsius (`if (seen != celsius) { seen = celsius  fq = ... }`), need no slot: every call
    reads what the first computed (tests/nmodl/mod/qcache.mod, against NEURON 9.0.2 by
    ci/nmodl-neuron-check.sh). A value BREAKPOINT changes from call to call stays refused."""
    from hb_nmodl.model import CELSIUS
    from hb_nmodl.numerics import build
    mech = load(os.path.join(TEST_MODS, "qcache.mod"))
    assert mech.store == [] and sorted(mech.bp_cache) == ["fq", "seen"]
    cur = dict(build(mech)["current"].writes)
    ica = [e for e in cur.values() if isinstance(e, sympy.Basic) and e.has(CELSIUS)]
    assert ica and not any(e.has(sympy.Piecewise) for e in ica), cur
    head = ("NEURON { SUFFIX c NONSPECIFIC_CURRENT i }\nASSIGNED { v (mV) i (mA/cm2) "
            "celsius (degC) }\nLOCAL key, q\nBREAKPOINT {\n")
    # Read before the update: the cached value all the same (NEURON: after the first call).
    m = loads(head + "  i = q*(v + 70)\n  if (key != celsius) { key = celsius  q = celsius/10 }\n}\n",
              "c.mod")
    i = dict(build(m)["current"].writes)
    assert any(isinstance(e, sympy.Basic) and sympy.simplify(e - CELSIUS / 10 * (
        sympy.Symbol("v", real=True) + 70)) == 0 for e in i.values()), i
    # Keyed on v, counted, or compared by order: kept between steps, refused.
    for body, col in (("  if (key != v) { key = v  q = v/10 }\n", 19),
                      ("  q = q + 1\n", 3),
                      ("  if (key < celsius) { key = celsius  q = 2 }\n", 24)):
        refusal(head + body + "  i = q*(v + 70)\n}\n", "kept between steps", 5, col)


def test_at_time_statement():
    """at_time(te) as a statement tells NEURON's variable-step integrator of a
    discontinuity and does nothing under the fixed step: the pulse is the same
    with and without it. Its value (1 in the step reaching te) needs dt in
    BREAKPOINT and is refused by name."""
    from hb_nmodl.numerics import build
    pulse = ("NEURON { POINT_PROCESS P RANGE del, dur, amp, i ELECTRODE_CURRENT i }\n"
             "PARAMETER { del = 1 (ms) dur = 2 (ms) amp = 0.5 (nA) }\n"
             "ASSIGNED { i (nA) }\nINITIAL { i = 0 }\nBREAKPOINT {\n%s"
             "  if (t < del + dur && t >= del) { i = amp } else { i = 0 }\n}\n")
    plain = build(loads(pulse % "", "p.mod"))
    timed = build(loads(pulse % "  at_time(del)\n  at_time(del + dur)\n", "p.mod"))
    assert dict(plain["current"].writes) == dict(timed["current"].writes)
    refusal(pulse % "  if (at_time(del)) { i = 0 }\n", "function at_time", 6, 7)
    refusal(pulse % "  at_time()\n", "at_time takes one time", 6, 3, NmodlError)


def test_electrode_current():
    """ELECTRODE_CURRENT (positive inward, as NEURON's electrodes): the membrane's total
    current and conductance take it negated, as nrn_cur adds it to the right-hand side and
    takes its conductance off the diagonal; its probe value is the file's, as written."""
    from hb_nmodl.model import TIME, V
    from hb_nmodl.numerics import build
    mech = load(os.path.join(TEST_MODS, "tpulse.mod"))
    assert mech.electrode == ["i"] and mech.currents == ["i"] and mech.uses_t
    fns = build(mech)
    cur = dict(fns["current"].writes)
    vals = {sympy.Symbol("p_del", real=True): 3, sympy.Symbol("p_dur", real=True): 2,
            sympy.Symbol("p_amp", real=True): sympy.Rational(3, 10),
            sympy.Symbol("p_gs", real=True): sympy.Rational(1, 1000),
            sympy.Symbol("p_es", real=True): -70, V: -60, TIME: 4}
    inside = sympy.Rational(3, 10) * (1 + sympy.sin(4) / 2) - sympy.Rational(1, 100)
    assert abs(sympy.N(cur["*i"].subs(vals) + inside, 30)) < 1e-25      # outward: negated
    assert abs(sympy.N(cur["*g"].subs(vals) - sympy.Rational(1, 1000), 30)) < 1e-25
    probe = dict(fns["currents"].writes)["out[0]"]
    assert abs(sympy.N(probe.subs(vals) - inside, 30)) < 1e-25          # as written
    assert describe(mech, "tpulse.mod")["electrode_currents"] == ["i"]
    # a density mechanism's electrode current and a nonspecific one together
    src = ("NEURON { SUFFIX e\n  ELECTRODE_CURRENT ie\n  NONSPECIFIC_CURRENT il }\n"
           "ASSIGNED { v ie il }\nBREAKPOINT {\n  ie = 2 * v\n  il = 3 * v\n}\n")
    both = dict(build(loads(src, "e.mod"))["current"].writes)
    assert sympy.simplify(both["*i"] - V) == 0 and both["*g"] == 1


def test_after_cvode_procedure_and_flag_conditions():
    """SOLVE proc METHOD after_cvode runs the PROCEDURE in the state step, as NEURON's fixed
    step does (another METHOD for a PROCEDURE is refused); a number that an if set (a flag) is
    a condition of a later if: true where it is not 0, in every branch that chose it."""
    from hb_nmodl.model import TIME, V
    from hb_nmodl.numerics import build
    mech = load(os.path.join(TEST_MODS, "vstep.mod"))
    assert mech.method == "procedure" and mech.electrode == ["i"]
    cur = dict(build(mech)["current"].writes)
    vals = {sympy.Symbol("p_hold", real=True): -70, sympy.Symbol("p_test", real=True): -20,
            sympy.Symbol("p_rser", real=True): 2, sympy.Symbol("p_start", real=True): 1,
            sympy.Symbol("s_stop", real=True): 6, V: -50}
    # before the step, during it, after it (the clamp lets go: no current, no conductance)
    for t, vcmd in ((sympy.Rational(1, 2), -70), (3, -20), (7, None)):
        i_out = cur["*i"].subs(vals).subs(TIME, t)
        want = 0 if vcmd is None else -sympy.Rational(vcmd + 50, 2)   # outward: negated
        assert sympy.simplify(i_out - want) == 0, (t, i_out)
        g = cur["*g"].subs(vals).subs(TIME, t)
        assert sympy.simplify(g - (0 if vcmd is None else sympy.Rational(1, 2))) == 0, (t, g)
    # its SOLVE assigns i again as BREAKPOINT's formula at the new v: kept again (a probe
    # records NEURON's after-step value); not so where the SOLVE's formula differs
    assert mech.keep_after and not load(os.path.join(TEST_MODS, "tpulse.mod")).keep_after
    clamp = ("NEURON { POINT_PROCESS C\n  ELECTRODE_CURRENT i\n  RANGE vc }\n"
             "PARAMETER { vc = -20 }\nASSIGNED { v i }\nBREAKPOINT {\n"
             "  SOLVE p METHOD after_cvode\n  i = (vc - v)/2\n}\nPROCEDURE p() {\n  i = %s\n}\n")
    assert loads(clamp % "(vc - v)/2", "c.mod").keep_after
    assert not loads(clamp % "(vc - v)/3", "c.mod").keep_after
    src = ("NEURON { SUFFIX f RANGE a\n  NONSPECIFIC_CURRENT i }\nPARAMETER { a = 1 }\n"
           "ASSIGNED { v i on }\nBREAKPOINT {\n  SOLVE p METHOD %s\n  i = 0\n}\n"
           "PROCEDURE p() {\n  on = 0\n}\n")
    assert not loads(src % "after_cvode", "f.mod").keep_after
    refusal(src % "cnexp", "unsupported METHOD cnexp for a PROCEDURE", 6, 18)
    # a flag set in nested branches, read as a condition
    flag = loads("NEURON { SUFFIX g RANGE a\n  NONSPECIFIC_CURRENT i }\nPARAMETER { a = 1 }\n"
                 "ASSIGNED { v i on }\nBREAKPOINT {\n  on = 0\n  if (v > a) {\n"
                 "    if (v < 2*a) { on = 3 }\n  } else { on = -1 }\n"
                 "  if (on) { i = v } else { i = 2*v }\n}\n", "g.mod")
    c = dict(build(flag)["current"].writes)["*i"]
    a = sympy.Symbol("p_a", real=True)
    for v, k in ((15, 1), (25, 2), (5, 1)):  # on = 3, 0, -1
        assert sympy.simplify(c.subs({a: 10, V: v}) - k * v) == 0, (v, c)


def test_v_nudged_off_a_singularity():
    """Published channels assign v (NEURON's own copy) to step off 0/0: that holds for the
    rest of the function, and the quotients after it are still guarded."""
    src = MINIMAL + """STATE { m }
ASSIGNED { minf malpha }
INITIAL { rates() m = minf }
BREAKPOINT { SOLVE s METHOD cnexp }
DERIVATIVE s { rates() m' = (minf - m)/2 }
PROCEDURE rates() {
  if (v == -38) { v = v + 0.0001 }
  malpha = 0.182*(v + 38)/(1 - exp(-(v + 38)/6))
  minf = malpha/(malpha + 1)
}
"""
    mech = loads(src, "nudge.mod")
    roots = sorted(float(r) for s in mech.singularities for r in s.roots)
    assert roots == [-38.0001, -38.0], roots
    minf = mech.init_out["m"]
    for x in (-38, -38.0001, -50):
        val = minf.subs(V, x).evalf()
        assert val.is_finite and 0 < val < 1, (x, val)
    text = generate(mech, "nudge.mod")
    assert "hb_nmodl_exprelr" in text


def test_state_start_values():
    """INITIAL starts each STATE at its <name>0 PARAMETER, else its default, else 0."""
    src = MINIMAL + "PARAMETER { x0 = 0.25 }\nSTATE { x y = 0.5 z }\nINITIAL { z = z + 1 }\n"
    mech = loads(src, "s.mod")
    out = mech.init_out
    assert out["x"] == sympy.Symbol("p_x0", real=True)
    assert out["y"] == sympy.Rational(1, 2) and out["z"] == 1


def test_if_else_assigning_both_branches_is_not_kept():
    """An ASSIGNED set in both branches of an if/else (K_Pst's mTau) is not a
    value kept between calls; one set in one branch only is."""
    body = ("STATE { m }\nASSIGNED { tau }\nBREAKPOINT { SOLVE s METHOD cnexp }\n"
            "INITIAL { m = 0 }\nDERIVATIVE s { %s m' = (1 - m) / tau }\n")
    both = loads(MINIMAL + body % "if (v < -50) { tau = 2 } else { tau = 3 }", "b.mod")
    assert both.store == []
    one = loads(MINIMAL + body % "if (v < -50) { tau = 2 }", "o.mod")
    assert one.store == ["tau"]
    l5 = load(os.path.join(ROOT, "data", "models", "l5pc", "mod", "K_Pst.mod"))
    assert l5.store == [] and l5.states == ["m", "h"]


def _deriv_coeffs(src):
    from hb_nmodl.numerics import build
    mech = loads(src, "c.mod")
    build(mech)
    return mech


def test_cnexp_detection():
    base = MINIMAL.replace("RANGE a }", "RANGE a }\n") + "STATE { x }\nBREAKPOINT { SOLVE s METHOD cnexp }\n"
    linear = _deriv_coeffs(base + "DERIVATIVE s { x' = (exp(v/10) - x)*a/(1 + v*v) }\n")
    assert linear.state_method == "cnexp" and linear.warnings == []
    nonlinear = _deriv_coeffs(base + "DERIVATIVE s { x' = -x*x*a + v }\n")
    assert nonlinear.state_method.startswith("derivimplicit") and nonlinear.warnings
    text = generate(nonlinear, "c.mod")
    assert "expm1" not in text.split("hb_mech_t_state")[1]  # Newton, not exponential


def test_singularities_hh():
    hh = load(os.path.join(MECHS, "hh.mod"))
    roots = set()
    for s in hh.singularities:
        for r in s.roots:
            roots.add(float(r))
    assert roots == {-40.0, -55.0}, roots
    # after the rewrite, the rates evaluate at the roots themselves
    for n, name in ((0, "m"), (2, "n")):
        inf = hh.init_out[name]
        assert inf.has(Exprelr)
        for root in (-40, -55):
            val = inf.subs(V, root).evalf()
            assert val.is_finite and 0 < val < 1


def test_singularity_forms():
    from hb_nmodl.singular import remove_singularities
    k = sympy.Symbol("p_k", positive=True)
    vh = sympy.Symbol("p_vh", real=True)
    cases = [
        ((V + 40) / (1 - sympy.exp(-(V + 40) / 10)), [-40]),
        (V / (sympy.exp(V / 7) - 1), [0]),
        (2 * (V - vh) / (1 - sympy.exp(-(V - vh) / k)), [vh]),
        ((V + 10) / (sympy.exp((V + 10) / 5) - 1) + V, [-10]),
    ]
    for expr, roots in cases:
        found = []
        out = remove_singularities(expr, V, "t", found)
        assert len(found) == 1 and found[0].roots == roots, (expr, found)
        assert out.has(Exprelr)
        # same function away from the root
        for x in (-70.3, 12.9):
            subs = {V: x, k: 3, vh: -20}
            a, b = expr.subs(subs).evalf(), out.subs(subs).rewrite(sympy.exp).evalf()
            b = out.subs(subs).replace(Exprelr, lambda u: u / (sympy.exp(u) - 1)).evalf()
            assert abs(a - b) <= 1e-12 * abs(a), (expr, a, b)
    # true poles are left alone
    for expr in (1 / (1 + sympy.exp(V)), V / (sympy.exp(V / 7) - 2)):
        found = []
        assert remove_singularities(expr, V, "t", found) == expr and not found


TEST_MODS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mod")


def test_published_style_files_compile():
    """Channels written in the style of published models (tests/nmodl/mod: vtrap FUNCTION,
    TABLE, derivimplicit, GHK, calcium written as a STATE, Hill functions of cai) translate
    and their generated C compiles warning-free in both precisions."""
    import shutil
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    files = sorted(os.path.join(TEST_MODS, f) for f in os.listdir(TEST_MODS) if f.endswith(".mod"))
    files += [os.path.join(MECHS, n + ".mod") for n in SHIPPED]
    files += sorted(os.path.join(L5PC_MODS, f) for f in os.listdir(L5PC_MODS) if f.endswith(".mod"))
    with tempfile.TemporaryDirectory() as d:
        tu = os.path.join(d, "all.c")
        with open(tu, "w") as f:
            f.write('#include "hb_mech_host.h"\n')
            for path in files:
                mech = load(path)
                base = os.path.splitext(os.path.basename(path))[0]
                with open(os.path.join(d, base + ".cl"), "w") as g:
                    g.write(generate(mech, base + ".mod"))
                f.write('#include "%s.cl"\n' % base)
        if not cc:
            return  # translation checked; no C compiler here
        for prec in ("-DHB_DOUBLE=1", "-UHB_DOUBLE"):
            r = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic",
                                "-Wno-unused-function", prec, "-I", d, "-I",
                                os.path.join(ROOT, "apps", "nmodl", "runtime"), "-c", tu, "-o",
                                os.path.join(d, "all.o")], capture_output=True, text=True)
            assert r.returncode == 0, r.stderr[-3000:]
    kca = load(os.path.join(TEST_MODS, "kca.mod"))
    assert kca.ion_inputs == ["ek", "cai"] and kca.ion_currents == ["ik"]
    cad = load(os.path.join(TEST_MODS, "cad.mod"))
    assert cad.ion_inputs == ["ica"] and cad.states == ["cai"] and cad.ions[0].concentrations == ["cai"]
    cal = load(os.path.join(TEST_MODS, "cal.mod"))
    assert [float(r) for s in cal.singularities for r in s.roots] == [0.0]
    nat = load(os.path.join(TEST_MODS, "nat.mod"))
    assert nat.method == "derivimplicit" and len(nat.singularities) >= 3


def test_l5pc_channels():
    """The Hay et al. 2011 channels (data/models/l5pc/mod): each translates without
    warnings, cnexp throughout, no values kept between calls, the expected ions,
    and every removable 0/0 of their rates found at its voltage."""
    want = {  # name: (states, ion inputs, currents, roots of removable 0/0)
        "NaTa_t": (["m", "h"], ["ena"], ["ina"], [-38, -38, -66, -66]),
        "Nap_Et2": (["m", "h"], ["ena"], ["ina"], [-38, -38, -17, -64.4]),
        "K_Pst": (["m", "h"], ["ek"], ["ik"], []),
        "K_Tst": (["m", "h"], ["ek"], ["ik"], []),
        "SKv3_1": (["m"], ["ek"], ["ik"], []),
        "SK_E2": (["z"], ["ek", "cai"], ["ik"], []),
        "Ca_HVA": (["m", "h"], ["eca"], ["ica"], [-27]),
        "Ca_LVAst": (["m", "h"], ["eca"], ["ica"], []),
        "Ih": (["m"], [], ["ihcn"], [-154.9]),
        "Im": (["m"], ["ek"], ["ik"], []),
        "CaDynamics_E2": (["cai"], ["ica"], [], []),
    }
    found = sorted(f[:-4] for f in os.listdir(L5PC_MODS) if f.endswith(".mod"))
    assert found == sorted(want), found
    for name, (states, ins, curs, roots) in want.items():
        m = load(os.path.join(L5PC_MODS, name + ".mod"))
        assert m.name == name and m.kind == "density" and m.warnings == [], (name, m.warnings)
        assert m.method == "cnexp" and m.state_method == "cnexp", name
        assert m.states == states and m.store == [], (name, m.states, m.store)
        assert m.ion_inputs == ins and m.currents == curs, (name, m.ion_inputs, m.currents)
        got = [float(r) for sg in m.singularities for r in sg.roots]
        assert got == roots, (name, got)


def test_mutated_files_fail_cleanly():
    """Hostile input: the shipped, test and L5PC files with random cuts, insertions and copies
    translate or fail with NmodlError (file:line:column), never another exception."""
    import random
    seed = int(os.environ.get("HB_TEST_SEED", random.randrange(1 << 30)))
    print("seed %d (replay with HB_TEST_SEED=%d)" % (seed, seed))
    rng = random.Random(seed)
    srcs = []
    for d, names in ((MECHS, SHIPPED), (TEST_MODS, ["nat", "cal", "cad", "kca", "kspec", "cseq",
                                                    "cpool", "qcache", "kss", "karea",
                                                    "cashells", "crw"]),
                     (L5PC_MODS, ["K_Pst", "Nap_Et2", "SK_E2", "CaDynamics_E2", "Ih"])):
        for n in names:
            with open(os.path.join(d, n + ".mod")) as f:
                srcs.append(f.read())
    inserts = ["(", ")", "{", "}", "-", "*", "^", "0", "v", "x", "'", "=", " if ", "/0", "exp(",
               "1e999", " else ", "LOCAL", ":", "COMMENT", " REPRESENTS ", "[", "<", "at_time(",
               "]", " FROM i = 0 TO 3 ", " BY -1 ", "[k+1]", "[9]", " ica ", " WRITE ica "]
    for _ in range(120):
        s = rng.choice(srcs)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(s))
            op = rng.randrange(3)
            if op == 0:
                s = s[:i] + s[i + rng.randint(1, 5):]
            elif op == 1:
                s = s[:i] + rng.choice(inserts) + s[i:]
            else:
                j = rng.randrange(len(s))
                s = s[:i] + s[j:j + 8] + s[i:]
        try:
            generate(loads(s, "m.mod"), "m.mod")
        except NmodlError as e:
            assert str(e).startswith("m.mod:") and e.line >= 1 and e.col >= 1, str(e)


def test_condition_on_an_infinity_fails_cleanly():
    """A value made infinite in one branch (x / 0) and compared in the next if: sympy refuses
    the comparison (TypeError), which the translator reports at that statement (found by
    test_mutated_files_fail_cleanly with HB_TEST_SEED=615731900)."""
    src = """NEURON { SUFFIX z RANGE a, b }
PARAMETER { a = 0.1  b = 10 }
STATE { m }
INITIAL {
    if (a / b > 0.9999) {
        a = 0.9999 * b / 0
    }
    if (a / b < 1e-9) {
        a = b * 1e-9
    }
    m = a
}
BREAKPOINT { SOLVE s METHOD cnexp }
DERIVATIVE s { m' = -m / b }
"""
    try:
        generate(loads(src, "z.mod"), "z.mod")
    except NmodlError as e:
        assert str(e).startswith("z.mod:") and e.line >= 1 and e.col >= 1, str(e)
        return
    raise AssertionError("z.mod translated although a branch divides by 0")


def _run_function(fn, values):
    """Evaluates a numerics.Function: values maps input symbols to numbers; returns its writes."""
    env = dict(values)
    for stage in fn.stages:
        for sym, expr in stage:
            e = sympy.sympify(expr).xreplace(env)
            # a condition (a Newton iteration's "still moving") is true or false already
            env[sym] = e if isinstance(e, sympy.logic.boolalg.Boolean) and not e.is_Symbol \
                else e.evalf(30)
    return {lv: sympy.sympify(e).xreplace(env).evalf(30) for lv, e in fn.writes}


def test_kinetic_nonlinear_steady_state():
    """INITIAL's SOLVE ... STEADYSTATE sparse of a nonlinear scheme (tests/nmodl/mod/kss.mod:
    lig + buf <-> bound, two CONSERVEs) runs NEURON's _ss_sparse: one Newton step of 1e9 ms,
    then Newton's iterations from there until the states move by 1e-6 or less; the states
    it gives hold both totals and, to that tolerance's effect, the equilibrium
    kon lig buf = kv bound (the same values as NEURON 9.0.2's to 5e-15:
    ci/nmodl-neuron-check.sh)."""
    from hb_nmodl.numerics import build
    mech = load(os.path.join(TEST_MODS, "kss.mod"))
    init = build(mech)["init"]
    prm = {sympy.Symbol("p_" + p.name, real=True): sympy.Float(p.default, 30) for p in mech.params}
    for v in (-90, -20, 40):
        got = _run_function(init, {V: v, **prm})
        lig, buf, bound = (got["st[%d]" % mech.slot_names().index(n)]
                           for n in ("lig", "buf", "bound"))
        kv = (sympy.Float("0.2", 30) * sympy.exp(sympy.Rational(-v, 40))).evalf(30)
        kon, btot, ltot = 50, sympy.Float("0.04", 30), sympy.Float("0.01", 30)
        assert abs(buf + bound - btot) < 1e-14 and abs(lig + bound - ltot) < 1e-14, (v, got)
        assert abs(kon * lig * buf - kv * bound) < 1e-6 * kv * bound, (v, got)  # seen: 6e-9
        assert min(lig, buf, bound) > 0, (v, got)


def test_derivimplicit_coupled_linear_is_backward_euler():
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = MINIMAL + """STATE { x y }
BREAKPOINT { SOLVE s METHOD derivimplicit }
DERIVATIVE s {
  x' = -2*x + 0.5*y + v/100
  y' = 0.25*x - 3*y*a + 1
}
"""
    mech = loads(src, "c.mod")
    fn = build(mech)["state"]
    sx, sy = sympy.Symbol("s_x", real=True), sympy.Symbol("s_y", real=True)
    pa = sympy.Symbol("p_a", real=True)
    vals = {sx: sympy.Rational(3, 10), sy: sympy.Rational(-7, 10), V: -30, DT: sympy.Rational(1, 4),
            pa: 2}
    got = _run_function(fn, vals)
    # linear: one Newton step is backward Euler exactly: (I - dt A) x' = x + dt b
    A = sympy.Matrix([[-2, sympy.Rational(1, 2)], [sympy.Rational(1, 4), -6]])
    b = sympy.Matrix([sympy.Rational(-30, 100), 1])
    x0 = sympy.Matrix([vals[sx], vals[sy]])
    want = (sympy.eye(2) - vals[DT] * A).LUsolve(x0 + vals[DT] * b)
    assert abs(got["st[0]"] - want[0]) < 1e-25 and abs(got["st[1]"] - want[1]) < 1e-25, (got, want)


def test_newton_nonlinear_converges():
    """derivimplicit on a nonlinear equation: backward Euler solved (NEURON iterates Newton
    to convergence; one step, as once here, is off by the step's own error: 1e-4 below)."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = MINIMAL + "STATE { x }\nBREAKPOINT { SOLVE s METHOD derivimplicit }\n" \
        "DERIVATIVE s { x' = -x*x*x + v/10 }\n"
    fn = build(loads(src, "n.mod"))["state"]
    sx = sympy.Symbol("s_x", real=True)
    x0, dt, v = sympy.Rational(1, 2), sympy.Rational(1, 10), 5
    got = _run_function(fn, {sx: x0, DT: dt, V: v})["st[0]"]
    x = sympy.Symbol("x")
    root = sympy.nsolve(x - x0 - dt * (-x**3 + sympy.Rational(v, 10)), x, x0, prec=30)
    one = x0 + dt * (-x0**3 + sympy.Rational(v, 10)) / (1 + 3 * dt * x0**2)
    assert abs(one - root) > 1e-4 and abs(got - root) < 1e-15, (got, root)


KIN3 = MINIMAL + """STATE { c1 c2 o }
ASSIGNED { ik (mA/cm2) }
INITIAL { SOLVE kin STEADYSTATE sparse }
BREAKPOINT { SOLVE kin METHOD sparse }
KINETIC kin {
  LOCAL k
  k = exp(v/20)
  ~ c1 <-> c2 (0.2*k, 0.1/k)
  ~ c2 <-> o (0.5*a, 0.3)
  CONSERVE c1 + c2 + o = 1
}
"""


def test_kinetic_linear_scheme():
    """A linear KINETIC scheme: state() is backward Euler exactly (NEURON's sparse), INITIAL's
    STEADYSTATE its steady state with the CONSERVE total, even from states that sum to 0."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    mech = loads(KIN3, "k.mod")
    assert mech.method == "sparse" and mech.states == ["c1", "c2", "o"]
    fns = build(mech)
    v, dt, pa = -20, sympy.Rational(1, 40), sympy.Rational(3, 2)
    pav = sympy.Symbol("p_a", real=True)
    k = sympy.exp(sympy.Rational(v, 20))
    A = sympy.Matrix([[-0.2 * k, 0.1 / k, 0], [0.2 * k, -0.1 / k - 0.5 * pa, 0.3],
                      [0, 0.5 * pa, -0.3]]).applyfunc(sympy.nsimplify)
    init = _run_function(fns["init"], {V: v, pav: pa})
    ss = [init["st[%d]" % r] for r in range(3)]
    assert abs(sum(ss) - 1) < 1e-20
    assert max(abs(x) for x in A * sympy.Matrix(ss)) < 1e-9, ss
    x0 = sympy.Matrix([sympy.Rational(1, 2), sympy.Rational(3, 10), sympy.Rational(1, 5)])
    syms = {sympy.Symbol("s_" + n, real=True): x0[r] for r, n in enumerate(mech.states)}
    syms.update({V: v, DT: dt, pav: pa})
    got = _run_function(fns["state"], syms)
    want = (sympy.eye(3) - dt * A).LUsolve(x0)
    for r in range(3):
        assert abs(got["st[%d]" % r] - want[r].evalf(30)) < 1e-25, (r, got, want)


def test_cnexp_updates_in_place_in_order():
    """cnexp (nocmodl) updates each state where its equation stands: a statement after
    x' = ... reads the new x, and so does a later state's equation; statements before it read
    the old (tests/nmodl/mod/cseq.mod checks the same against NEURON 9.0.2)."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = """NEURON { SUFFIX t NONSPECIFIC_CURRENT i RANGE p, q }
STATE { x w }
ASSIGNED { i p q }
INITIAL { x = 1 w = 0 p = 0 q = 0 }
BREAKPOINT {
  SOLVE s METHOD cnexp
  i = 1e-3 * (p + q)
}
DERIVATIVE s {
  p = x
  x' = -2 * x
  q = x
  w' = (x - w) / 3
}
"""
    mech = loads(src, "t.mod")
    fns = build(mech)
    dt, x0, w0 = sympy.Rational(1, 40), sympy.Rational(3, 2), sympy.Rational(1, 5)
    got = _run_function(fns["state"], {sympy.Symbol("s_x", real=True): x0,
                                       sympy.Symbol("s_w", real=True): w0, DT: dt})
    st = {n: got["st[%d]" % k] for k, n in enumerate(mech.slot_names())}
    x1 = x0 * sympy.exp(-2 * dt)
    w1 = x1 + (w0 - x1) * sympy.exp(-dt / 3)  # w's equation at the new x
    for name, want in (("x", x1), ("w", w1), ("p", x0), ("q", x1)):
        assert abs(st[name] - want.evalf(30)) < 1e-25, (name, st[name], want)


def test_written_concentration_not_a_state():
    """WRITE cai where cai is not a STATE (a pool integrated in a STATE of its own, then
    `cai = ca`): a kept slot, the catalogue writes it to the ion after INITIAL and the SOLVE;
    unassigned it is the ion's value; BREAKPOINT and NET_RECEIVE may not assign it (the ion
    is written after INITIAL and the SOLVE only). tests/nmodl/mod/cpool.mod checks it against
    NEURON 9.0.2, alone and in a whole simulation (ci/t-compare.sh)."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    head = "NEURON { SUFFIX t USEION ca READ ica, cai WRITE cai }\nSTATE { ca }\nASSIGNED { ica cai }\n"
    src = head + """INITIAL { ca = 2e-4 cai = ca }
BREAKPOINT { SOLVE s METHOD cnexp }
DERIVATIVE s {
  ca' = -ica - (ca - 1e-4) / 20
  cai = ca
}
"""
    mech = loads(src, "t.mod")
    assert mech.states == ["ca"] and mech.store == ["cai"], (mech.states, mech.store)
    assert [i.concentrations for i in mech.ions] == [["cai"]]
    fns = build(mech)
    dt, ca0, ica = sympy.Rational(1, 40), sympy.Rational(3, 10000), sympy.Rational(-1, 100)
    got = _run_function(fns["state"], {sympy.Symbol("s_ca", real=True): ca0, DT: dt,
                                       sympy.Symbol("ica", real=True): ica})
    st = {n: got["st[%d]" % k] for k, n in enumerate(mech.slot_names())}
    inf = sympy.Rational(1, 10000) - 20 * ica
    want = inf + (ca0 - inf) * sympy.exp(-dt / 20)
    assert abs(st["ca"] - want.evalf(30)) < 1e-28 and st["cai"] == st["ca"], st
    # A function that does not assign it leaves the ion's value.
    bare = head + "BREAKPOINT { SOLVE s METHOD cnexp }\nDERIVATIVE s { ca' = cai - ca }\n"
    fns = build(loads(bare, "u.mod"))
    got = _run_function(fns["state"], {sympy.Symbol("s_ca", real=True): ca0, DT: dt,
                                       sympy.Symbol("cai", real=True): sympy.Rational(1, 7)})
    assert abs(got["st[1]"] - sympy.Rational(1, 7)) < 1e-28, got
    refusal(head + "BREAKPOINT {\n  cai = 1\n}\n", "BREAKPOINT assigns cai, which is kept", 5, 3)
    refusal("NEURON { POINT_PROCESS t USEION ca READ cai WRITE cai }\nASSIGNED { cai }\n"
            "NET_RECEIVE(w) {\n  cai = w\n}\n", "unsupported assignment to cai in NET_RECEIVE",
            4, 3)
    refusal("NEURON { POINT_PROCESS t USEION ca READ cai WRITE cai }\nASSIGNED { cai x }\n"
            "NET_RECEIVE(w) {\n  x = cai\n}\n", "unsupported use of cai in NET_RECEIVE", 4, 7)


def test_kinetic_species_not_states_and_fluxes():
    """A reaction's species that is not a STATE (a PARAMETER, an ion's cao, also named in a
    COMPARTMENT) is a constant of the scheme, with no equation of its own, as nocmodl reads it;
    f_flux and b_flux are the last reaction's fluxes ('<<': 0 and its flux), and a value the
    block keeps is the one at the new states (NEURON runs the block once more there).
    tests/nmodl/mod/kspec.mod checks the same against NEURON 9.0.2 (ci/nmodl-neuron-check.sh)."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = """NEURON { SUFFIX t USEION ca READ cao, ica NONSPECIFIC_CURRENT i RANGE s, q }
PARAMETER { s = 3 kf = 0.5 kb = 0.25 vo = 4 }
STATE { a b }
ASSIGNED { ica cao q i }
INITIAL { a = 1 b = 2 q = 0 }
BREAKPOINT {
  SOLVE kin METHOD sparse
  i = 1e-3 * q
}
KINETIC kin {
  COMPARTMENT vo { b cao }
  ~ s <-> a (kf, kb)
  ~ a <-> b + cao (kf, kb)
  q = f_flux - 10 * b_flux
  ~ a << (ica)
  q = q + 100 * b_flux - f_flux
}
"""
    mech = loads(src, "t.mod")
    assert mech.states == ["a", "b"], mech.states
    fns = build(mech)
    dt, cao, ica = sympy.Rational(1, 40), sympy.Rational(2), sympy.Rational(-3, 10)
    a0, b0 = sympy.Rational(1), sympy.Rational(2)
    vals = {sympy.Symbol("s_a", real=True): a0, sympy.Symbol("s_b", real=True): b0, DT: dt,
            sympy.Symbol("cao", real=True): cao, sympy.Symbol("ica", real=True): ica}
    for n, x in (("s", 3), ("kf", sympy.Rational(1, 2)), ("kb", sympy.Rational(1, 4)),
                 ("vo", 4)):
        vals[sympy.Symbol("p_" + n, real=True)] = x
    got = _run_function(fns["state"], vals)
    # Backward Euler by hand: a' = kf s - kb a - (kf a - kb b cao) + ica, vo b' = kf a - kb b cao.
    A, B = sympy.symbols("A B")
    fa = sympy.Rational(3, 2) - A / 4 - (A / 2 - B / 2) + ica
    fb = (A / 2 - B / 2) / 4
    sol = sympy.solve([A - a0 - dt * fa, B - b0 - dt * fb], [A, B])
    st = {n: got["st[%d]" % k] for k, n in enumerate(mech.slot_names())}
    assert abs(st["a"] - sol[A]) < 1e-25 and abs(st["b"] - sol[B]) < 1e-25, (st, sol)
    # q: (f - 10 b) of the second reaction, then 100 x the '<<' flux less its f_flux (0), at
    # the new states.
    want = (sol[A] / 2 - 10 * (sol[B] / 2)) + 100 * ica
    assert abs(st["q"] - want) < 1e-25, (st["q"], want)


def test_kinetic_nonlinear_scheme():
    """A binding reaction (nonlinear): Newton as NEURON's sparse, to its 1e-6 stop; the
    influx through '<<' and the CONSERVE row."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = """NEURON { SUFFIX t USEION ca READ ica RANGE a }
PARAMETER { a = 1 }
STATE { ca b cb }
ASSIGNED { ica }
BREAKPOINT { SOLVE kin METHOD sparse }
KINETIC kin {
  ~ ca << (-ica*a)
  ~ ca + b <-> cb (100, 0.1)
  CONSERVE b + cb = 0.05
}
"""
    mech = loads(src, "b.mod")
    fn = build(mech)["state"]
    x0 = [sympy.Rational(1, 1000), sympy.Rational(4, 100), sympy.Rational(1, 100)]
    dt, ica, pa = sympy.Rational(1, 40), sympy.Rational(-1, 100), 2
    vals = {sympy.Symbol("s_" + n, real=True): x0[r] for r, n in enumerate(mech.states)}
    vals.update({DT: dt, sympy.Symbol("ica", real=True): ica, sympy.Symbol("p_a", real=True): pa})
    got = _run_function(fn, vals)
    c, b, cb = sympy.symbols("c b cb")
    flux = 100 * c * b - sympy.Rational(1, 10) * cb
    eqs = [c - x0[0] - dt * (-ica * pa - flux), b - x0[1] + dt * flux, b + cb - sympy.Rational(5, 100)]
    root = sympy.nsolve(eqs, [c, b, cb], x0, prec=30)
    assert abs(got["st[1]"] + got["st[2]"] - sympy.Rational(5, 100)) < 1e-25
    # NEURON stops once a step moves the states by under 1e-6 in sum: the last
    # step's own error is of order its square (one step alone: 1e-7 here).
    for r in range(3):
        assert abs(got["st[%d]" % r] - root[r]) < 1e-12, (r, got, root)


def test_kinetic_compartments():
    """COMPARTMENT as NEURON's sparse solver has it (nocmodl's generated rows): each state's
    equation is volume x' = its fluxes, << included, and a CONSERVE sums volume x."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = MINIMAL + """STATE { c o s }
BREAKPOINT { SOLVE kin METHOD sparse }
KINETIC kin {
  COMPARTMENT 2*a { c o }
  COMPARTMENT 5 { s }
  ~ c << (0.3)
  ~ c <-> o (0.2, 0.1)
  ~ o <-> s (0.4, 0.05)
  CONSERVE c + o + s = 1
}
"""
    fn = build(loads(src, "m.mod"))["state"]
    x0 = [sympy.Rational(1, 10), sympy.Rational(1, 5), sympy.Rational(1, 10)]
    dt, pa = sympy.Rational(1, 40), sympy.Rational(3, 2)
    vals = {sympy.Symbol("s_" + n, real=True): x0[r] for r, n in enumerate(("c", "o", "s"))}
    vals.update({DT: dt, sympy.Symbol("p_a", real=True): pa})
    got = _run_function(fn, vals)
    c, o, s_ = (got["st[%d]" % r] for r in range(3))
    vol = [2 * pa, 2 * pa, 5]
    # The CONSERVE row replaces one equation (s's, the last): the others hold.
    R = sympy.Rational
    f1, f2 = R(1, 5) * c - R(1, 10) * o, R(2, 5) * o - R(1, 20) * s_
    assert abs(vol[0] * (c - x0[0]) - dt * (R(3, 10) - f1)) < 1e-25
    assert abs(vol[1] * (o - x0[1]) - dt * (f1 - f2)) < 1e-25
    assert abs(vol[0] * c + vol[1] * o + vol[2] * s_ - 1) < 1e-25, got


def test_cnexp_is_exact_for_linear():
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = MINIMAL + "STATE { x }\nBREAKPOINT { SOLVE s METHOD cnexp }\n" \
        "DERIVATIVE s { x' = (v/20 - x)/(a*3) }\n"
    fn = build(loads(src, "e.mod"))["state"]
    sx, pa = sympy.Symbol("s_x", real=True), sympy.Symbol("p_a", real=True)
    x0, dt, v = sympy.Rational(1, 5), sympy.Rational(7, 10), -13
    got = _run_function(fn, {sx: x0, DT: dt, V: v, pa: 2})["st[0]"]
    inf, tau = sympy.Rational(v, 20), 6
    want = inf + (x0 - inf) * sympy.exp(-dt / tau)
    assert abs(got - want.evalf(30)) < 1e-25


ARRAYS = MINIMAL + """DEFINE N 3
ASSIGNED { vol[N] }
STATE { c[N] d }
INITIAL {
  LOCAL acc
  acc = 0
  FROM i = N - 1 TO 0 BY -1 {
    acc = acc * 10 + i
  }
  d = acc
  shape()
  FROM i = 0 TO N-1 { c[i] = i + 1 }
}
PROCEDURE shape() { LOCAL w[2]
  w[0] = a
  w[1] = 2
  FROM i = 0 TO N - 1 {
    vol[i] = w[0] + w[1] * i
  }
}
BREAKPOINT { SOLVE k METHOD sparse }
KINETIC k {
  COMPARTMENT i, vol[i] { c }
  ~ c[0] << (0.3)
  FROM i = 0 TO N - 2 {
    ~ c[i] <-> c[i+1] (a, 2 * a)
  }
  ~ d << (-d)
}
"""


def test_arrays_and_from_loops():
    """Arrays (STATE, ASSIGNED, LOCAL) and FROM loops: each element a variable (c_0 shown as
    c[0]), each loop unrolled in order (BY -1 too), an indexed COMPARTMENT of each element's
    volume; the scheme's step is backward Euler exactly (NEURON 9.0.2 gives the same values
    on tests/nmodl/mod/cashells.mod: ci/nmodl-neuron-check.sh)."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    mech = loads(ARRAYS, "arr.mod")
    assert mech.states == ["c_0", "c_1", "c_2", "d"]
    assert [mech.shown(n) for n in mech.slot_names()[:4]] == ["c[0]", "c[1]", "c[2]", "d"]
    assert [x["name"] for x in describe(mech, "arr.mod")["states"]] == ["c[0]", "c[1]", "c[2]", "d"]
    assert "_STATE_NAMES {\"c[0]\", \"c[1]\", \"c[2]\", \"d\"" in generate(mech, "arr.mod")
    fns = build(mech)
    pa = sympy.Rational(3, 2)
    pav = sympy.Symbol("p_a", real=True)
    init = _run_function(fns["init"], {V: -65, pav: pa})
    # by value: _run_function's Floats equal no Integer in sympy 1.13 and later
    assert all(abs(init["st[%d]" % r] - w) < 1e-25 for r, w in enumerate([1, 2, 3, 210])), init
    # vol[i] = a + 2 i, kept from INITIAL (read by the KINETIC block)
    kept = {n: mech.slot_names().index(n) for n in ("vol_0", "vol_1", "vol_2")}
    assert all(abs(init["st[%d]" % kept["vol_%d" % i]] - (pa + 2 * i)) < 1e-25 for i in range(3))
    x0 = [sympy.Rational(1, 2), sympy.Rational(3, 10), sympy.Rational(1, 5)]
    dt, vol = sympy.Rational(1, 40), [pa + 2 * i for i in range(3)]
    vals = {sympy.Symbol("s_c_%d" % r, real=True): x0[r] for r in range(3)}
    vals.update({sympy.Symbol("s_d", real=True): 1, DT: dt, pav: pa, V: -65})
    vals.update({sympy.Symbol("s_vol_%d" % i, real=True): vol[i] for i in range(3)})
    got = _run_function(fns["state"], vals)
    A = sympy.Matrix([[-pa, 2 * pa, 0], [pa, -pa - 2 * pa, 2 * pa], [0, pa, -2 * pa]])
    src = sympy.Matrix([sympy.Rational(3, 10), 0, 0])
    M = sympy.diag(*vol)
    want = (M - dt * A).LUsolve(M * sympy.Matrix(x0) + dt * src)
    for r in range(3):
        assert abs(got["st[%d]" % r] - want[r]) < 1e-25, (r, got, want)


def test_many_coupled_states_translate_quickly():
    """A scheme of 12 coupled states (4 shells of calcium, buffer and bound buffer) solved
    as straight-line elimination (implicit.solve_stages): the closed form of sympy's LUsolve
    took more than 5 minutes at 9 states."""
    import time
    t0 = time.time()
    mech = load(os.path.join(TEST_MODS, "cashells.mod"))
    text = generate(mech, "cashells.mod")
    assert len(mech.states) == 12 and "hb_mech_cashells_state" in text
    assert time.time() - t0 < 60


def test_array_refusals():
    arr = MINIMAL + "DEFINE N 3\nSTATE { c[N] }\n"
    refusal(arr + "INITIAL { FROM i = 0 TO a { c[i] = 1 } }\n",
            "unsupported FROM's end (TO) that is not a constant", 6, 25)
    refusal(arr + "INITIAL { c[3] = 1 }\n", "c[3] is outside the array (3 elements)", 6, 11,
            NmodlError)
    refusal(arr + "INITIAL { c[a] = 1 }\n", "unsupported the index of c that is not a constant",
            6, 13)
    refusal(arr + "INITIAL { c = 1 }\n", "assignment to the whole array c", 6, 11, NmodlError)
    refusal(arr + "INITIAL { a = c }\n", "array c read without an index", 6, 15, NmodlError)
    refusal(arr + "INITIAL { FROM i = 0 TO 2 { i = 1 } }\n",
            "assignment to the FROM loop's variable i", 6, 29, NmodlError)
    refusal(arr + "INITIAL { FROM i = 0 TO 2 BY 0 { } }\n", "FROM loop with a step of 0", 6, 11,
            NmodlError)
    refusal(MINIMAL + "STATE { c[5000] }\n", "unsupported array c of 5000 elements", 4, 11)
    refusal(arr + "INITIAL { FROM i = 0 TO 100000000 { c[0] = i } }\n",
            "unsupported FROM loops unrolled to more than", 6, 11)
    refusal(arr + "INITIAL { a = x[1] }\n", "x[...]: x is not an array", 6, 15, NmodlError)
    refusal(MINIMAL + "STATE { c[2] c_1 }\n", "its element c[1] is the variable c_1", 4, 9,
            NmodlError)
    refusal(MINIMAL + "STATE { c[q] }\n", "size q is not a number or a DEFINE", 4, 11,
            NmodlError)
    # A scheme past implicit.MAX_COUPLED states: its solve written out would take minutes.
    big = MINIMAL + "STATE { c[40] }\nBREAKPOINT { SOLVE k METHOD sparse }\nKINETIC k {\n" \
        " FROM i = 0 TO 38 { ~ c[i] <-> c[i+1] (a, a) }\n}\n"
    try:
        generate(loads(big, "x.mod"), "x.mod")
        raise AssertionError("40 coupled states accepted")
    except Unsupported as e:
        assert str(e).startswith("x.mod:5:14: unsupported 40 states solved together by sparse "
                                 "(at most 32)"), str(e)


def test_read_and_write_of_one_current():
    """A file that READs and WRITEs one ion current (NEURON's cabpump.mod; tests/nmodl/mod/crw.mod):
    the SOLVE reads the ion's total (received as in_ica), BREAKPOINT writes the mechanism's own
    (ica). Refused, each at its statement: a read in BREAKPOINT before assigning it (NEURON gives
    the sum so far, which hangs on the mechanisms' order), a read in INITIAL, an assignment in
    the SOLVE."""
    head = ("NEURON { SUFFIX t USEION ca READ cao, ica WRITE ica RANGE ip }\n"
            "PARAMETER { a = 1 }\nASSIGNED { ica ip }\nSTATE { c }\n")
    ok = head + ("BREAKPOINT { SOLVE s METHOD cnexp  ica = ip }\n"
                 "DERIVATIVE s { ip = a * c  c' = -(ica - ip) - c }\n")
    mech = loads(ok, "x.mod")
    assert mech.rw_currents == ["ica"] and "ica" in mech.ion_inputs and mech.ion_currents == ["ica"]
    text = generate(mech, "x.mod")
    assert "const real in_ica" in text and "real *ica)" in text, text[:2000]
    # state_tc's own body (the state() wrapper after it passes in_ica on
    # whatever the body does): the SOLVE computes with the ion's total.
    state = text[text.index("hb_mech_t_state_tc"):]
    state = state[state.index("{"):state.index("\n}\n")]
    assert "(void)in_ica" not in state and "in_ica" in state, state
    crw = load(os.path.join(TEST_MODS, "crw.mod"))
    assert crw.rw_currents == ["ica"] and crw.method == "derivimplicit"
    refusal(head + "BREAKPOINT { SOLVE s METHOD cnexp  ica = ica + ip }\n"
            "DERIVATIVE s { c' = -c }\n",
            "use of ica in BREAKPOINT before assigning it", 5, 42)
    refusal(head + "INITIAL { c = ica }\nBREAKPOINT { SOLVE s METHOD cnexp  ica = ip }\n"
            "DERIVATIVE s { c' = -c }\n", "use of ica in INITIAL before assigning it", 5, 15)
    refusal(head + "BREAKPOINT { SOLVE s METHOD cnexp  ica = ip }\n"
            "DERIVATIVE s { ica = c  c' = -c }\n", "assignment to ica in s ", 6, 16)


def test_array_derivatives():
    """A DERIVATIVE block over array elements, written c'[i] (in a FROM loop) or e[0]' (cnexp:
    each element's exact exponential decay)."""
    from hb_nmodl.model import DT
    from hb_nmodl.numerics import build
    src = MINIMAL + ("STATE { c[2] e[1] }\nBREAKPOINT { SOLVE d METHOD cnexp }\nDERIVATIVE d {\n"
                     " FROM i = 0 TO 1 { c'[i] = -(i + 1) * c[i] }\n e[0]' = -3 * e[0]\n}\n")
    mech = loads(src, "d.mod")
    assert mech.states == ["c_0", "c_1", "e_0"] and mech.method == "cnexp"
    dt = sympy.Rational(1, 40)
    vals = {sympy.Symbol("s_" + n, real=True): 1 for n in mech.states}
    vals.update({DT: dt, V: -65, sympy.Symbol("p_a", real=True): 1})
    got = _run_function(build(mech)["state"], vals)
    for r, k in enumerate((1, 2, 3)):
        assert abs(got["st[%d]" % r] - sympy.exp(-k * dt)) < 1e-25, (r, got)


GUARDED = """NEURON { POINT_PROCESS g RANGE tau, n, w0 GLOBAL gcount NONSPECIFIC_CURRENT i }
PARAMETER { tau = 2 (ms) }
ASSIGNED { v (mV) i (nA) n w0 gcount }
STATE { s }
INITIAL { s = 0 n = 0 w0 = 0 }
BREAKPOINT {
  SOLVE st METHOD cnexp
  i = s * v
}
DERIVATIVE st { s' = -s / tau }
NET_RECEIVE(w) {
%s}
"""


def test_thread_guards():
    """PROTECT and MUTEXLOCK/MUTEXUNLOCK guard values NEURON's threads share:
    each instance here owns what it assigns, so the generated code is the
    same as without them; a GLOBAL assigned under one (a sum over instances)
    is refused at the assignment, and unbalanced locks at their statement."""
    guarded = "  s = s + w\n  PROTECT n = n + 1\n  MUTEXLOCK\n  w0 = w0 + w\n  MUTEXUNLOCK\n"
    plain = "  s = s + w\n  n = n + 1\n  w0 = w0 + w\n"
    text = generate(loads(GUARDED % guarded, "g.mod"), "g.mod")
    assert text == generate(loads(GUARDED % plain, "g.mod"), "g.mod")
    # The comparison sees the guarded statements: without one, the text differs.
    assert text != generate(loads(GUARDED % "  s = s + w\n  n = n + 1\n", "g.mod"), "g.mod")
    nested = "  if (w > 0) {\n    MUTEXLOCK\n    n = n + 1\n    MUTEXUNLOCK\n  }\n"
    loads(GUARDED % nested, "g.mod")
    sum_msg = "assignment to GLOBAL gcount under %s (a value shared by every instance"
    refusal(GUARDED % "  PROTECT gcount = gcount + 1\n", sum_msg % "PROTECT", 12, 11)
    refusal(GUARDED % "  MUTEXLOCK\n  gcount = gcount + w\n  MUTEXUNLOCK\n",
            sum_msg % "MUTEXLOCK", 13, 3)
    refusal(GUARDED % "  MUTEXLOCK\n  s = s + w\n",
            "MUTEXLOCK without its MUTEXUNLOCK in the same block", 12, 3, NmodlError)
    refusal(GUARDED % "  s = s + w\n  MUTEXUNLOCK\n",
            "MUTEXUNLOCK without a MUTEXLOCK in its block", 13, 3, NmodlError)
    refusal(GUARDED % "  MUTEXLOCK\n  MUTEXLOCK\n  MUTEXUNLOCK\n  MUTEXUNLOCK\n",
            "MUTEXLOCK inside MUTEXLOCK (line 12)", 13, 3, NmodlError)
    refusal(GUARDED % "  MUTEXLOCK\n  if (w > 0) {\n    MUTEXUNLOCK\n  }\n",
            "MUTEXUNLOCK without a MUTEXLOCK in its block", 14, 5, NmodlError)
    refusal(GUARDED % "  PROTECT f()\n", "PROTECT guards an assignment", 12, 3, NmodlError)


STP = os.path.join(ROOT, "tests", "nmodl", "mod", "stp.mod")
PULSE = os.path.join(ROOT, "tests", "nmodl", "mod", "pulse.mod")
TRAIN = os.path.join(ROOT, "tests", "nmodl", "mod", "train.mod")
NETARGS = """NEURON { POINT_PROCESS P RANGE tau, u0 NONSPECIFIC_CURRENT i }
PARAMETER { tau = 2 (ms) u0 = 0.1 }
ASSIGNED { v (mV) i (nA) }
STATE { g }
BREAKPOINT { i = g*v }
NET_RECEIVE(w, x, tl (ms)) {
%s}
"""


def test_net_send():
    """net_send(delay, flag) in NET_RECEIVE: net_receive() takes the flag and
    fills snd[] with (1 if sent, t + delay, flag) per statement, each under
    the conditions it stands in (evaluated where it stands); flag is 0 and
    not an argument where no net_send exists; net_send elsewhere, a wrong
    count of arguments, and too many statements are refused."""
    mech = load(PULSE)
    assert len(mech.sends) == 2 and mech.uses_t
    text = generate(mech, "pulse.mod")
    assert ("hb_mech_PulseSyn_net_receive)(const real weight, const real t, const real flag, "
            "const real *prm, real *st, real *cs, real *snd)") in text
    assert "#define HB_MECH_PULSESYN_NSEND 2" in text
    nr = text[text.index("hb_mech_PulseSyn_net_receive)"):]
    assert "snd[1] = p_dur + t;" in nr and "snd[2] = (real)1;" in nr and "snd[5] = (real)2;" in nr
    assert describe(mech, "pulse.mod")["net_send"] == 2
    # A value read where net_send stands: the time before x changes after it.
    # A point process (density mechanisms' net_sends are refused), 3 lines as MINIMAL.
    head = "NEURON { POINT_PROCESS Q RANGE a }\nPARAMETER { a = 1 }\nASSIGNED { v (mV) }\n"
    body = head + "ASSIGNED { x }\nINITIAL { x = 1 }\nNET_RECEIVE(w) {\n%s}\n"
    m = loads(body % "  if (flag == 0) {\n    net_send(x, 3)\n  }\n  x = x + 1\n", "s.mod")
    g, te, f = m.sends[0]
    assert str(te) == "s_x + t" and f == 3 and "flag" in str(g)
    c = generate(m, "s.mod")
    assert "snd[0] = flag == (real)0 ? (real)1 : (real)0;" in c
    # A procedure's net_send counts as NET_RECEIVE's.
    m = loads(head + "PROCEDURE p(d) {\n  net_send(d, 1)\n}\nNET_RECEIVE(w) {\n  p(2)\n  p(3)\n}\n",
              "p.mod")
    assert [str(te) for _, te, _ in m.sends] == ["t + 2", "t + 3"]
    # No net_send: flag is 0 and the text keeps its shape.
    m = loads(body % "  if (flag == 0) {\n    x = 2\n  }\n", "n.mod")
    assert not m.has_send and "flag" not in generate(m, "n.mod").split("net_receive)")[1].split("\n")[0]
    refusal(body % "  net_send(1)\n", "net_send takes a delay and a flag", 7, 3, NmodlError)
    refusal(MINIMAL + "STATE { g }\nNET_RECEIVE(w, c) {\n  INITIAL { net_send(0, 1) }\n}\n",
            "unsupported net_send in NET_RECEIVE's INITIAL", 6, 13)
    refusal(MINIMAL + "PROCEDURE p() {\n  net_send(0, 1)\n}\nBREAKPOINT { p() }\n",
            "unsupported net_send in BREAKPOINT", 5, 3)
    # INITIAL's: init() fills snd[] likewise (t is 0 there); a file without
    # NET_RECEIVE has nothing to receive them.
    tr = load(TRAIN)
    assert len(tr.init_sends) == 1 and len(tr.sends) == 2
    ti = generate(tr, "train.mod")
    assert "#define HB_MECH_TRAINSYN_NSEND_INIT 1" in ti
    init = ti[ti.index("hb_mech_TrainSyn_init)"):]
    assert init.split("\n")[0].endswith("real *st, real *snd)") and "snd[1] = p_start + t;" in init
    assert describe(tr, "train.mod")["initial_net_send"] == 1
    point = "NEURON { POINT_PROCESS Q }\nASSIGNED { v (mV) }\n"
    refusal(point + "INITIAL {\n  net_send(1, 1)\n}\n", "net_send in INITIAL without NET_RECEIVE",
            4, 3, NmodlError)
    many = "".join("  net_send(%d, 1)\n" % k for k in range(17))
    refusal(body % many, "unsupported more than 16 net_send statements", 6, 1)


def test_net_receive_connection_values():
    """NET_RECEIVE's arguments after the weight are each connection's own
    values (NEURON's NetCon weight vector): read and written by NET_RECEIVE
    through cs[], set up by NET_RECEIVE's INITIAL (net_init, at t = 0, from
    the weight, PARAMETERs and constants only); a file with one argument
    keeps the text it had."""
    mech = load(STP)
    assert mech.conn_args == ["x", "u", "tlast"]
    text = generate(mech, "stp.mod")
    assert ("hb_mech_StpSyn_net_receive)(const real weight, const real t, const real *prm, "
            "real *st, real *cs)") in text
    assert "#define HB_MECH_STPSYN_NCONN 3" in text and "#define HB_MECH_STPSYN_HAS_NET_INIT 1" in text
    init = text[text.index("hb_mech_StpSyn_net_init)"):]
    assert "cs[0] = (real)1;" in init and "cs[1] = p_u0;" in init and "cs[2] = (real)0;" in init
    assert "tlast" in describe(mech, "stp.mod")["connection"]
    # NET_RECEIVE writes back only what it changed; tl stays as it came.
    m = loads(NETARGS % "  g = g + w*x\n  x = x*0.5\n", "n.mod")
    body = generate(m, "n.mod")
    nr = body[body.index("hb_mech_P_net_receive)"):]
    assert "cs[0] = " in nr and "cs[1]" not in nr and "net_init" not in body
    assert "HB_MECH_P_HAS_NET_INIT 0" in body
    # One argument: the text has no cs and no NCONN.
    one = generate(load(os.path.join(MECHS, "expsyn.mod")), "expsyn.mod")
    assert "cs" not in one.split("net_receive)")[1].split("\n")[0] and "NCONN" not in one
    ok = "  INITIAL {\n    x = u0*w\n    tl = t\n  }\n  g = g + w*x\n"
    assert "tl" in describe(loads(NETARGS % ok, "n.mod"), "n.mod")["connection"]
    refusal(NETARGS % "  INITIAL { x = g }\n", "use of g in NET_RECEIVE's INITIAL", 7, 17)
    refusal(NETARGS % "  INITIAL { x = v }\n", "use of v in NET_RECEIVE's INITIAL", 7, 17)
    refusal(NETARGS % "  INITIAL { x = flag }\n", "use of flag in NET_RECEIVE's INITIAL", 7, 17)
    refusal(NETARGS % "  INITIAL { i = 1 }\n", "assignment to i in NET_RECEIVE's INITIAL", 7, 13)
    refusal(NETARGS % "  INITIAL { x = 1 }\n  INITIAL { x = 2 }\n",
            "NET_RECEIVE has two INITIAL blocks", 8, 3, NmodlError)
    refusal(NETARGS % "  if (w > 0) {\n    INITIAL { x = 1 }\n  }\n",
            "INITIAL block inside a block", 8, 5)


# Last: every test above is defined by the time it runs.
if __name__ == "__main__":
    failed = 0
    names = [n for n in sorted(globals()) if n.startswith("test_")]
    for n in names:
        try:
            globals()[n]()
            print("PASS", n)
        except Exception as e:  # report every test, then fail
            failed += 1
            print("FAIL", n, type(e).__name__, e)
    print("%d passed, %d failed" % (len(names) - failed, failed))
    sys.exit(1 if failed else 0)
