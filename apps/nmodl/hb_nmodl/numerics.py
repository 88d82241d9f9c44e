"""numerics.py: each interface function as straight-line assignments: cnexp as Rush-Larsen, derivimplicit, nonlinear cnexp and KINETIC as backward Euler by Newton steps, g = di/dv."""
import sympy

from .model import DT, V, conn_symbol, updated_symbol
from .implicit import is_zero as _zero
from .implicit import check_coupled, newton_step
from .singular import remove_singularities
from .symfuncs import Expm1


class Function:
    """One generated function: inputs it may read, temporaries to compute, outputs to write."""

    def __init__(self, name, stages, writes):
        self.name = name
        self.stages = stages  # list of lists of (Symbol, expr); each list is cse'd on its own
        self.writes = writes  # list of (C lvalue, expr)


def state_symbol(name):
    return sympy.Symbol("s_" + name, real=True)


def build(mech):
    """The init, current, currents, state and net_receive Functions of a Mechanism (state/net_receive may be None)."""
    fix = lambda e, where: remove_singularities(e, V, where, mech.singularities)  # noqa: E731
    slots = mech.slot_names()
    funcs = {}
    # INITIAL's STEADYSTATE solves (KINETIC) are stages its writes read.
    funcs["init"] = Function("init", [[(s, fix(e, "INITIAL")) for s, e in stage]
                                      for stage in mech.init_stages],
                             [("st[%d]" % k, fix(mech.init_out[n], "INITIAL"))
                              for k, n in enumerate(slots)] +
                             _send_writes(mech.init_sends, "INITIAL", fix))
    total = sympy.Integer(0)
    writes = []
    per_ion = []
    # Each current once through the singularity search (it records what it
    # replaced), shared by current and currents.
    cur = {c: fix(mech.current_out[c], "BREAKPOINT") for c in mech.currents}
    for ion in mech.ions:
        for c in ion.currents:
            per_ion.append(("*" + c, cur[c]))
    # The outward total: an electrode current (positive inward) counts
    # negated, as NEURON's nrn_cur adds it to the right-hand side and takes
    # its conductance off the diagonal.
    for c in mech.currents:
        total = total - cur[c] if c in mech.electrode else total + cur[c]
    # g = di/dv at fixed states (NEURON's conductance; exact, not a difference quotient).
    writes.append(("*g", sympy.diff(total, V)))
    writes.append(("*i", total))
    writes.extend(per_ion)
    funcs["current"] = Function("current", [], writes)
    # Every current on its own (ion currents, nonspecific, then electrode ones as
    # written, positive inward), for probes.
    funcs["currents"] = Function("currents", [], [("out[%d]" % q, cur[c])
                                                  for q, c in enumerate(mech.currents)])
    funcs["state"] = None
    mech.state_method = mech.method
    if mech.state_frame is not None:
        funcs["state"] = _state(mech, fix)
    funcs["net_receive"] = None
    funcs["net_init"] = None
    if mech.net_frame is not None:
        frame = mech.net_frame
        w = []
        for k, n in enumerate(slots):
            if n in frame.glob:
                w.append(("st[%d]" % k, fix(frame.glob[n], "NET_RECEIVE")))
        w += _conn_writes(mech, frame, "NET_RECEIVE", fix)
        w += _send_writes(mech.sends, "NET_RECEIVE", fix)
        funcs["net_receive"] = Function("net_receive", [], w)
    if mech.net_init_frame is not None:
        funcs["net_init"] = Function("net_init", [], _conn_writes(
            mech, mech.net_init_frame, "NET_RECEIVE's INITIAL", fix))
    return funcs


def _send_writes(sends, where, fix):
    """Each net_send: snd[3k] 1 where it ran (0 where its condition did not
    hold), snd[3k + 1] its delivery time, snd[3k + 2] its flag."""
    w = []
    for k, (cond, te, flag) in enumerate(sends):
        on = sympy.Integer(1) if cond == sympy.true else \
            sympy.Piecewise((sympy.Integer(1), cond), (sympy.Integer(0), True))
        w += [("snd[%d]" % (3 * k), on), ("snd[%d]" % (3 * k + 1), fix(te, where)),
              ("snd[%d]" % (3 * k + 2), fix(flag, where))]
    return w


def _conn_writes(mech, frame, where, fix):
    """The connection's values a NET_RECEIVE function leaves changed, into cs[]."""
    out = []
    for k, a in enumerate(mech.conn_args):
        e = frame.local[a]
        if e != conn_symbol(a):
            out.append(("cs[%d]" % k, fix(e, where)))
    return out


def _sub(e, values):
    return e.xreplace(values) if isinstance(e, sympy.Basic) else e


def _kept_writes(mech, frame, fix, skip=()):
    out = []
    for k, n in enumerate(mech.slot_names()):
        if n in frame.glob and n not in skip:
            out.append((k, fix(frame.glob[n], mech.solve.name)))
        elif n in mech.conc_kept:
            # The catalogue writes it to the ion after the SOLVE: unassigned,
            # the ion's own value goes back (NEURON's copy in and out).
            out.append((k, sympy.Symbol(n, real=True)))
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
    # cnexp: a statement after x' = ... read x's new value (updated_symbol),
    # put in below in the block's order; any other method evaluates the
    # block at one set of states, so there it is the state itself.
    order = [n for n in frame.derivs if n in fs]
    same = {updated_symbol(n): state_symbol(n) for n in xs}
    if mech.method == "euler":  # NEURON's euler: x += dt f(x), every f at the old states
        w = [("st[%d]" % slots.index(n), state_symbol(n) + DT * fs[n]) for n in xs]
        w += [("st[%d]" % k, e) for k, e in kept]
        return Function("state", [], w)
    if mech.method == "cnexp":
        linear = True
        coef = {}
        for n in xs:
            x = state_symbol(n)
            a = sympy.diff(fs[n], x)
            if not _zero(sympy.diff(a, x)):
                linear = False
                mech.warnings.append("%s' is not linear in %s: backward Euler (derivimplicit, "
                                     "as NEURON) instead of cnexp" % (n, n))
                break
            coef[n] = (a, fs[n].subs(x, 0))
        if linear:
            upd = {}
            for n in order:
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
                new[n] = new[n].xreplace(upd)  # the states updated before it
                upd[updated_symbol(n)] = new[n]
            w = [("st[%d]" % slots.index(n), new[n]) for n in xs]
            w += [("st[%d]" % k, _sub(e, upd)) for k, e in kept]
            return Function("state", [], w)
        mech.state_method = "derivimplicit (cnexp nonlinear)"
    fs = {n: _sub(f, same) for n, f in fs.items()}
    kept = [(k, _sub(e, same)) for k, e in kept]
    # Backward Euler by Newton's method from x: (I - dt J) d = dt f(x) - (x - x0),
    # J = df/dx exact (symbolic); the small system solved by elimination here
    # (implicit.py). A linear system takes one step, exact; a nonlinear one
    # iterates as NEURON does. KINETIC (METHOD sparse): its CONSERVE rows.
    syms = [state_symbol(s) for s in xs]
    check_coupled(len(xs), mech.method, mech.file, mech.solve.tok)
    if mech.method == "sparse":  # NEURON's sparse: while the states move by > 1e-6, at most 4 here
        stages, new = newton_step(syms, [fs[x] for x in xs], DT, frame.conserve, iterations=4,
                                  tol=sympy.Rational(1, 10**6), clamp=True)
    else:  # NEURON's derivimplicit iterates to a relative change of 1e-6: 3 steps converge
        stages, new = newton_step(syms, [fs[x] for x in xs], DT, frame.conserve, iterations=3)
    # NEURON runs the block once more at the new states when the iterations
    # end, so the values its other statements keep (a flux kept as a current,
    # `ipump = f_flux - b_flux`; q = x^2 beside x') are those at the new
    # states (checked against NEURON 9.0.2: tests/nmodl/mod/kspec.mod).
    at = dict(zip(syms, new))
    kept = [(k, _sub(e, at)) for k, e in kept]
    w = [("st[%d]" % slots.index(xs[r]), new[r]) for r in range(len(xs))]
    w += [("st[%d]" % k, e) for k, e in kept]
    return Function("state", stages, w)
