"""numerics.py: each interface function as straight-line assignments: cnexp as Rush-Larsen, derivimplicit (and nonlinear cnexp) as backward Euler with one Newton step, g = di/dv."""
import sympy

from .model import DT, V
from .singular import remove_singularities
from .symfuncs import Expm1


class Function:
    """One generated function: inputs it may read, temporaries to compute, outputs to write."""

    def __init__(self, name, stages, writes):
        self.name = name
        self.stages = stages  # list of lists of (Symbol, expr); each list is cse'd on its own
        self.writes = writes  # list of (C lvalue, expr)


def _zero(e):
    """e is identically 0: structurally, else not at two random points, else by simplify."""
    if e == 0:
        return True
    import random
    rng = random.Random(1)  # the same decision on every run
    for _ in range(2):
        pt = {s: sympy.Rational(rng.randint(1, 97), rng.randint(1, 13)) for s in e.free_symbols}
        try:
            val = complex(e.xreplace(pt).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError):
            continue  # not a number there (a pole, a branch): decide below
        if abs(val) > 1e-20:
            return False  # a nonzero value: a cheap no, where simplify can take minutes
    try:
        return sympy.simplify(e) == 0
    except Exception:
        return False


def state_symbol(name):
    return sympy.Symbol("s_" + name, real=True)


def build(mech):
    """The init, current, currents, state and net_receive Functions of a Mechanism (state/net_receive may be None)."""
    fix = lambda e, where: remove_singularities(e, V, where, mech.singularities)  # noqa: E731
    slots = mech.slot_names()
    funcs = {}
    funcs["init"] = Function("init", [], [("st[%d]" % k, fix(mech.init_out[n], "INITIAL"))
                                          for k, n in enumerate(slots)])
    total = sympy.Integer(0)
    writes = []
    per_ion = []
    # Each current once through the singularity search (it records what it
    # replaced), shared by current and currents.
    cur = {c: fix(mech.current_out[c], "BREAKPOINT") for c in mech.currents}
    for ion in mech.ions:
        for c in ion.currents:
            per_ion.append(("*" + c, cur[c]))
    for c in mech.currents:
        total = total + cur[c]
    # g = di/dv at fixed states (NEURON's conductance; exact, not a difference quotient).
    writes.append(("*g", sympy.diff(total, V)))
    writes.append(("*i", total))
    writes.extend(per_ion)
    funcs["current"] = Function("current", [], writes)
    # Every current on its own (ion currents, then nonspecific), for probes.
    funcs["currents"] = Function("currents", [], [("out[%d]" % q, cur[c])
                                                  for q, c in enumerate(mech.currents)])
    funcs["state"] = None
    mech.state_method = mech.method
    if mech.state_frame is not None:
        funcs["state"] = _state(mech, fix)
    funcs["net_receive"] = None
    if mech.net_frame is not None:
        frame = mech.net_frame
        w = []
        for k, n in enumerate(slots):
            if n in frame.glob:
                w.append(("st[%d]" % k, fix(frame.glob[n], "NET_RECEIVE")))
        funcs["net_receive"] = Function("net_receive", [], w)
    return funcs


def _kept_writes(mech, frame, fix, skip=()):
    out = []
    for k, n in enumerate(mech.slot_names()):
        if n in frame.glob and n not in skip:
            out.append((k, fix(frame.glob[n], mech.solve.name)))
    return out


def _state(mech, fix):
    frame = mech.state_frame
    slots = mech.slot_names()
    if mech.method == "procedure":
        w = [("st[%d]" % k, e) for k, e in _kept_writes(mech, frame, fix)]
        return Function("state", [], w)
    xs = [n for n in mech.states if n in frame.derivs]
    fs = {n: fix(frame.derivs[n], mech.solve.name) for n in xs}
    kept = _kept_writes(mech, frame, fix, skip=set(xs))
    new = {}
    if mech.method == "cnexp":
        linear = True
        coef = {}
        for n in xs:
            x = state_symbol(n)
            a = sympy.diff(fs[n], x)
            if not _zero(sympy.diff(a, x)):
                linear = False
                mech.warnings.append("%s' is not linear in %s: backward Euler with one Newton "
                                     "step instead of cnexp" % (n, n))
                break
            coef[n] = (a, fs[n].subs(x, 0))
        if linear:
            for n in xs:
                x = state_symbol(n)
                a, b = coef[n]
                if _zero(a):  # x' = b: exact with Euler
                    new[n] = x + DT * b
                else:
                    # Rush-Larsen: x' = a x + b over dt at frozen v:
                    # x += (1 - exp(dt a)) (-b/a - x), 1 - exp through expm1.
                    # powsimp: q10^-1 q10 from a and b cancel (3^u 3^-u is not
                    # combined by sympy on its own).
                    inf = sympy.powsimp(-b / a)
                    new[n] = x + (-Expm1(DT * sympy.powsimp(a))) * (inf - x)
            w = [("st[%d]" % slots.index(n), new[n]) for n in xs]
            w += [("st[%d]" % k, e) for k, e in kept]
            return Function("state", [], w)
        mech.state_method = "derivimplicit (cnexp nonlinear)"
    # Backward Euler, one Newton step from x: (I - dt J) d = dt f(x), x += d,
    # J = df/dx exact (symbolic); the small system solved by elimination here.
    n = len(xs)
    syms = [state_symbol(s) for s in xs]
    jac_stage, rhs_stage = [], []
    jp = sympy.zeros(n, n)
    for r in range(n):
        for c in range(n):
            d = sympy.diff(fs[xs[r]], syms[c])
            entry = (1 if r == c else 0) - DT * d
            if r != c and _zero(d):
                continue
            s = sympy.Symbol("j%d_%d" % (r, c), real=True)
            jac_stage.append((s, entry))
            jp[r, c] = s
    rp = []
    for r in range(n):
        s = sympy.Symbol("r%d" % r, real=True)
        rhs_stage.append((s, DT * fs[xs[r]]))
        rp.append(s)
    delta = jp.LUsolve(sympy.Matrix(rp))
    dstage = [(sympy.Symbol("d%d" % r, real=True), delta[r]) for r in range(n)]
    w = [("st[%d]" % slots.index(xs[r]), syms[r] + dstage[r][0]) for r in range(n)]
    w += [("st[%d]" % k, e) for k, e in kept]
    return Function("state", [jac_stage + rhs_stage, dstage], w)
