"""test_loader.py: the cardiac translator (apps/cardiac): Myokit's own Beeler-Reuter 1977, Luo-Rudy 1991 and Decker 2009 (.mmt and CellML, from the installed myokit package) load; numerics per state; singularities removed; refusals name the variable; the generated C compiles warning-free in both precisions (pytest, or run as a script)."""
import os
import subprocess
import sys
import tempfile

import sympy

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "apps", "cardiac"))

import myokit  # noqa: E402

import hb_cardiac  # noqa: E402
from hb_cardiac import CardiacError, Unsupported  # noqa: E402
from hb_cardiac.codegen import catalogue  # noqa: E402
from hb_cardiac.loader import PACE  # noqa: E402
from hb_cardiac.numerics import BACKWARD_EULER, FORWARD_EULER, RUSH_LARSEN, step  # noqa: E402
from hb_nmodl.model import DT, V  # noqa: E402

DATA = os.path.join(os.path.dirname(myokit.__file__), "tests", "data")
CELLML = os.path.join(DATA, "formats", "cellml")
MMT = {"br1977": "beeler-1977-model.mmt", "lr1991": "lr-1991.mmt", "decker2009": "decker-2009.mmt"}
TOOL = os.path.join(ROOT, "apps", "cardiac", "hb_cardiac.py")


def load(name):
    return hb_cardiac.load(os.path.join(DATA, MMT[name]), name)


def refused(text, part, cls=Unsupported):
    """The .mmt text must be refused with cls, the message containing part."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "x.mmt")
        with open(p, "w") as f:
            f.write(text)
        try:
            hb_cardiac.load(p)
        except cls as e:
            assert part in str(e), str(e)
            return str(e)
    raise AssertionError("not refused: expected %s" % part)


def numeric(expr, values):
    """expr (sympy, with Exprelr and Expm1) at the values, 30 digits."""
    return float(expr.xreplace(values).evalf(30))


def test_shapes():
    """States (V first), parameters, methods: gates Rush-Larsen, concentrations backward Euler."""
    want = {"br1977": (8, 6), "lr1991": (8, 14), "decker2009": (48, 101)}
    for name, (ns, np_) in want.items():
        cm = load(name)
        step(cm)
        assert (len(cm.states), len(cm.params)) == (ns, np_), (name, len(cm.states), len(cm.params))
        assert cm.states[0] == "membrane_V"
        assert cm.methods["membrane_V"] == FORWARD_EULER
        assert cm.stimulus_param is not None, name
    cm = load("br1977")
    step(cm)
    for g in ("ina_m", "ina_h", "ina_j", "isi_d", "isi_f", "ix1_x1"):
        assert cm.methods[g] == RUSH_LARSEN, (g, cm.methods[g])
    assert cm.methods["calcium_Cai"] == BACKWARD_EULER  # E_si = f(log Cai): nonlinear
    cm = load("lr1991")
    step(cm)
    assert cm.methods["ica_Ca_i"] == BACKWARD_EULER
    assert sum(m == RUSH_LARSEN for m in cm.methods.values()) == 6
    cm = load("decker2009")
    step(cm)
    counts = {}
    for m in cm.methods.values():
        counts[m] = counts.get(m, 0) + 1
    assert counts == {FORWARD_EULER: 1, RUSH_LARSEN: 38, BACKWARD_EULER: 9}, counts


def test_cellml():
    """The CellML versions load through Myokit's importer; the embedded stimulus becomes pace."""
    cm = hb_cardiac.load(os.path.join(CELLML, "br-1977.cellml"))
    assert len(cm.states) == 8 and cm.protocol == (10.0, 1.0, 1000.0), cm.protocol
    assert cm.stimulus_param is not None
    cm = hb_cardiac.load(os.path.join(CELLML, "decker-2009.cellml"))
    assert len(cm.states) == 46 and cm.protocol is not None
    # A file whose stimulus Myokit cannot turn into a protocol keeps time: refused, named.
    try:
        hb_cardiac.load(os.path.join(CELLML, "lr-1991-exported-1.cellml"))
        raise AssertionError("lr-1991-exported-1.cellml: time dependence not refused")
    except Unsupported as e:
        assert "engine.time" in str(e) and "time" in str(e.what)


def test_singularities():
    """Beeler-Reuter's 0/0 at -47 mV (alpha_m) and -23 mV (IK1) found and removed; Luo-Rudy's and
    Decker's own guards if(x == c, limit, quotient) replaced by the quotient's limit form."""
    cm = load("br1977")
    new = dict(step(cm))
    roots = sorted(float(r) for s in cm.singularities for r in s.roots)
    assert roots == [-47.0, -23.0], roots
    # The step at exactly -47 and -23 mV is finite and equals the limit from beside.
    vals = {sympy.Symbol("s_" + s, real=True): v for s, v in zip(cm.states, cm.init)}
    vals.update({sympy.Symbol("p_" + p.name, real=True): p.default for p in cm.params})
    vals[DT] = sympy.Rational(1, 100)
    vals[PACE] = 0
    for root in (-47, -23):
        for name in ("membrane_V", "ina_m"):
            at = numeric(new[name], {**vals, V: root})
            near = numeric(new[name], {**vals, V: sympy.Rational(root) + sympy.Rational(1, 10**9)})
            assert abs(at - near) <= 1e-6 * max(1.0, abs(at)), (name, root, at, near)
    lr = load("lr1991")
    assert "ina.m.alpha" in lr.dropped_guards
    assert any(float(r) == -47.13 for s in lr.singularities for r in s.roots)
    dk = load("decker2009")
    assert {"ina.m.alpha", "ical.ICaL.ICaLBar", "inab.INaB"} <= set(dk.dropped_guards), dk.dropped_guards


def test_rush_larsen_exact():
    """A gate's update is the exact solution of x' = a x + b over dt at frozen V."""
    cm = load("br1977")
    new = dict(step(cm))
    x = sympy.Symbol("s_ina_h", real=True)
    f = cm.rhs["ina_h"]
    vals = {V: sympy.Rational(-60), x: sympy.Rational(3, 10), DT: sympy.Rational(1, 10)}
    a = sympy.diff(f, x).xreplace(vals)
    b = f.xreplace({x: 0}).xreplace(vals)
    exact = (-b / a + (vals[x] + b / a) * sympy.exp(a * vals[DT])).evalf(30)
    got = numeric(new["ina_h"], vals)
    assert abs(got - float(exact)) < 1e-14, (got, exact)


def test_backward_euler_newton():
    """A nonlinear state: one Newton step of backward Euler, x + dt f / (1 - dt f')."""
    cm = load("br1977")
    new = dict(step(cm))
    c = sympy.Symbol("s_calcium_Cai", real=True)
    vals = {sympy.Symbol("s_" + s, real=True): v for s, v in zip(cm.states, cm.init)}
    vals.update({sympy.Symbol("p_" + p.name, real=True): p.default for p in cm.params})
    vals.update({V: -10, DT: sympy.Rational(1, 10), PACE: 0})
    vals[sympy.Symbol("s_isi_d", real=True)] = sympy.Rational(1, 2)
    f = cm.rhs["calcium_Cai"]
    want = (c + DT * f / (1 - DT * sympy.diff(f, c))).xreplace(vals).evalf(30)
    assert abs(numeric(new["calcium_Cai"], vals) - float(want)) <= 1e-15 * abs(float(want))


def test_refusals():
    head = ("[[model]]\nx.V = -80\nx.y = 0\n[engine]\ntime = 0 bind time\npace = 0 bind pace\n"
            "[x]\n")
    refused(head + "dot(V) = -y - engine.pace\n    label membrane_potential\ndot(y) = sin(engine.time) - y\n",
            "engine.time: uses time")
    refused(head + "dot(V) = -y\n    label membrane_potential\nq = 1 bind realtime\n"
            "dot(y) = q - y\n", "x.q: uses the external input bound to 'realtime'")
    refused(head.replace("x.V = -80\n", "") + "V = -80\n    label membrane_potential\n"
            "dot(y) = V - y\n", "the membrane potential is not a state")
    refused("[[model]]\nx.V = 0\n[x]\ndot(V) = (\n", "Myokit cannot read it", CardiacError)


def test_cli():
    """Exit status 0 translated, 1 unreadable, 2 refused; --catalogue writes the three files."""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([sys.executable, TOOL, "--catalogue", d,
                            os.path.join(ROOT, "data", "cardiac", "beeler_reuter_1977.mmt")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert sorted(os.listdir(d)) == ["catalogue.json", "hb_card_catalogue.cl",
                                         "hb_card_catalogue_info.h"]
        bad = os.path.join(d, "bad.mmt")
        with open(bad, "w") as f:
            f.write("[[model]]\nx.V = 0\n[x]\ndot(V) = (\n")
        r = subprocess.run([sys.executable, TOOL, "--check", bad], capture_output=True, text=True)
        assert r.returncode == 1 and "bad.mmt: Myokit cannot read it" in r.stderr, r.stderr
        r = subprocess.run([sys.executable, TOOL, "--check",
                            os.path.join(CELLML, "lr-1991-exported-1.cellml")],
                           capture_output=True, text=True)
        assert r.returncode == 2 and "unsupported engine.time" in r.stderr, r.stderr


def test_generated_c_compiles():
    """The three models' catalogue, as the host backends compile it (card_host.h), in C11 with
    -Wall -Wextra -Werror in both precisions; also as OpenCL kernels' text for the host defines."""
    models = [hb_cardiac.load(os.path.join(DATA, f), n) for n, f in MMT.items()]
    cl, h, _ = catalogue(models)
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "cardiac", "catalogue"))
        with open(os.path.join(d, "cardiac", "catalogue", "hb_card_catalogue.cl"), "w") as f:
            f.write(cl)
        with open(os.path.join(d, "hb_card_catalogue_info.h"), "w") as f:
            f.write(h)
        src = os.path.join(d, "t.c")
        with open(src, "w") as f:
            f.write('#include "card_host.h"\n#include "hb_card_catalogue_info.h"\n'
                    'typedef void (*fn)(void);\n'
                    'const fn runs_d[] = HB_CARD_RUN_LIST(_d);\n'
                    'const fn runs_s[] = HB_CARD_RUN_LIST(_s);\n')
        r = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-cast-function-type",
                            "-Wno-incompatible-pointer-types", "-c", "-o", os.path.join(d, "t.o"),
                            "-I", d, "-I", os.path.join(ROOT, "backend_omp", "cardiac"), src],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[:3000]


if __name__ == "__main__":
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            fn()
            print("ok", name)
