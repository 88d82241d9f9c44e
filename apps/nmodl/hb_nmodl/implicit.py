"""implicit.py: backward Euler by Newton steps as straight-line stages, with CONSERVE rows; shared by derivimplicit, KINETIC (sparse) and STEADYSTATE."""
import sympy

from .errors import Unsupported
from .symfuncs import unfreeze

# States one Newton solve may couple: its elimination is written out as
# straight-line code, O(n^3) values per iteration (24 states: 9 s and 700 KB
# of C; 48: 81 s), so a larger scheme (or a hostile array size) is refused.
MAX_COUPLED = 32


def check_coupled(n, how, file, tok):
    """Refuses n states solved together by how (a METHOD, STEADYSTATE) past
    MAX_COUPLED, at tok (the SOLVE)."""
    if n > MAX_COUPLED:
        raise Unsupported("%d states solved together by %s (at most %d)" % (n, how, MAX_COUPLED),
                          file, tok.line, tok.col)


def is_zero(e):
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


def solve_stages(a, b, prefix):
    """The solution of a x = b (a: a sympy Matrix of symbols and zeros, b:
    symbols) as Gaussian elimination without pivoting, in the order sympy's
    LUsolve takes, written as stages of named values: each elimination
    step's multipliers, then its updates of the rows below, then the back
    substitution row by row from the last. Straight-line code of O(n^3)
    small values at most (zeros skipped), where the closed form swells past
    any use with a few coupled states (a scheme of 9 states took sympy more
    than 5 minutes). Returns (stages, x as expressions of the last values)."""
    n = a.rows
    m = {(r, c): a[r, c] for r in range(n) for c in range(n) if a[r, c] != 0}
    rhs = list(b)
    stages = []
    for k in range(n):
        if (k, k) not in m:
            raise ValueError("a zero pivot in row %d of the Newton system" % k)
        rows = [r for r in range(k + 1, n) if (r, k) in m]
        if not rows:
            continue
        fac = {}
        st = []
        for r in rows:
            f = sympy.Symbol("%sl%d_%d" % (prefix, r, k), real=True)
            st.append((f, m[(r, k)] / m[(k, k)]))
            fac[r] = f
        stages.append(st)
        st = []
        for r in rows:
            for c in range(k + 1, n):
                if (k, c) in m:
                    u = sympy.Symbol("%su%d_%d_%d" % (prefix, r, c, k), real=True)
                    st.append((u, m.get((r, c), 0) - fac[r] * m[(k, c)]))
                    m[(r, c)] = u
            if rhs[k] != 0:
                y = sympy.Symbol("%sy%d_%d" % (prefix, r, k), real=True)
                st.append((y, rhs[r] - fac[r] * rhs[k]))
                rhs[r] = y
            del m[(r, k)]
        stages.append(st)
    x = [None] * n
    for r in reversed(range(n)):
        acc = rhs[r]
        for c in range(r + 1, n):
            if (r, c) in m:
                acc = acc - m[(r, c)] * x[c]
        if r == 0:
            x[r] = acc / m[(r, r)]
            break
        xs = sympy.Symbol("%sx%d" % (prefix, r), real=True)
        stages.append([(xs, acc / m[(r, r)])])
        x[r] = xs
    return stages, x


def newton_step(syms, fs, dt, conserve=(), prefix="", iterations=1, tol=None, clamp=False):
    """Backward Euler from x = syms over dt by Newton's method: (I - dt J) d = dt f(x) - (x - x0).

    fs: f_r(x) per state (sympy, in syms; a Frozen term is left out of J); conserve: (lhs, total) pairs, lhs
    linear in syms (CONSERVE a + b + c = 1): each replaces the equation of
    its last state not yet replaced by sum(dlhs/dx_c d_c) = total - lhs(x),
    as NEURON's sparse solver does (for a scheme that conserves the sum
    already, the same solution; it also pins the total where the states did
    not sum to it, as STEADYSTATE needs). A linear system takes one step
    (exact). A nonlinear one takes up to `iterations`: NEURON iterates to
    convergence, so one step would differ from it by the step's own error;
    with `tol`, iteration k + 1 runs only while the previous one moved the
    states by more than tol in sum (NEURON's sparse: 1e-6), and `clamp` sets
    a state that goes negative to 0 (sparse does, for nonlinear schemes).
    Returns (stages, new values): the stages are lists of (Symbol, expr) for
    codegen (Function.stages), named from prefix so that solves do not clash.
    """
    n = len(syms)
    replaced = {}
    for lhs, total in conserve:
        for c in reversed(range(n)):
            if c not in replaced and not is_zero(sympy.diff(lhs, syms[c])):
                replaced[c] = (lhs, total)
                break
    sset = set(syms)
    if all(not (sympy.diff(f, x).free_symbols & sset) for f in fs for x in syms):
        iterations, clamp = 1, False  # sparse clamps nonlinear schemes only
    stages = []
    x, go = list(syms), None
    for k in range(iterations):
        pk = prefix if k == 0 else "%sn%d_" % (prefix, k)
        at = dict(zip(syms, x))
        jac_stage, rhs_stage = [], []
        jp = sympy.zeros(n, n)
        rp = []
        for r in range(n):
            fr = fs[r].xreplace(at)
            for c in range(n):
                if r in replaced:
                    entry = sympy.diff(replaced[r][0], syms[c])
                    if is_zero(entry):
                        continue
                else:
                    d = unfreeze(sympy.diff(fs[r], syms[c]).xreplace(at))
                    if r != c and is_zero(d):
                        continue
                    entry = (1 if r == c else 0) - dt * d
                s = sympy.Symbol("%sj%d_%d" % (pk, r, c), real=True)
                jac_stage.append((s, entry))
                jp[r, c] = s
            s = sympy.Symbol("%sr%d" % (pk, r), real=True)
            fr = unfreeze(fr)
            if r in replaced:
                rhs_stage.append((s, replaced[r][1] - replaced[r][0].xreplace(at)))
            elif k == 0:
                rhs_stage.append((s, dt * fr))
            else:
                rhs_stage.append((s, dt * fr - (x[r] - syms[r])))
            rp.append(s)
        lu, delta = solve_stages(jp, rp, pk)
        dstage = [(sympy.Symbol("%sd%d" % (pk, r), real=True), delta[r]) for r in range(n)]
        stages += [jac_stage + rhs_stage] + lu + [dstage]
        upd = [x[r] + dstage[r][0] for r in range(n)]
        if clamp:
            upd = [sympy.Piecewise((sympy.Integer(0), u < 0), (u, True)) for u in upd]
        if go is not None:
            upd = [sympy.Piecewise((u, go), (x[r], True)) for r, u in enumerate(upd)]
        if k == iterations - 1:
            return stages, upd
        nxt = [sympy.Symbol("%sx%d_%d" % (prefix, k + 1, r), real=True) for r in range(n)]
        step = list(zip(nxt, upd))
        if tol is not None:
            moved = sympy.Add(*[sympy.Abs(d) for d, _ in dstage]) > tol
            g = sympy.Symbol("%sgo%d" % (prefix, k + 1))
            step.append((g, moved if go is None else sympy.And(go, moved)))
            go = g
        stages.append(step)
        x = nxt
