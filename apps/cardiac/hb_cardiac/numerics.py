"""numerics.py: one time step of a cardiac model per state: Rush-Larsen where x' is linear in x, else backward Euler with one Newton step; V by forward Euler."""
import sympy

from hb_nmodl.model import DT, V
from hb_nmodl.numerics import _zero
from hb_nmodl.singular import remove_singularities
from hb_nmodl.symfuncs import Expm1

RUSH_LARSEN = "rush-larsen"
EULER = "euler"              # x' free of x: exact over the step at frozen inputs
BACKWARD_EULER = "backward-euler-newton"
FORWARD_EULER = "forward-euler"


def step(cm):
    """[(state name, its value after one step dt as a sympy expression of the old values)], and
    cm.methods (state -> method). Every derivative is evaluated at the old states (one sweep)."""
    out = []
    cm.methods = {}
    for k, name in enumerate(cm.states):
        f = remove_singularities(cm.rhs[name], V, cm.qnames[k], cm.singularities)
        x = cm.symbol(name)
        if k == 0:
            # V: forward Euler, as Myokit's own OpenCL simulation; the upstroke is
            # what limits dt, and an implicit V would need di/dV of every current.
            cm.methods[name] = FORWARD_EULER
            out.append((name, x + DT * f))
            continue
        a = sympy.diff(f, x)
        if not a.has(x) or _zero(sympy.diff(a, x)):
            b = f.xreplace({x: 0})
            if _zero(a):
                cm.methods[name] = EULER
                out.append((name, x + DT * b))
            else:
                # x' = a x + b at frozen inputs: x_inf = -b/a, x += (1 - exp(a dt)) (x_inf - x),
                # 1 - exp through expm1 (float keeps its digits for small a dt).
                cm.methods[name] = RUSH_LARSEN
                inf = sympy.powsimp(-b / a)
                out.append((name, x + (-Expm1(DT * sympy.powsimp(a))) * (inf - x)))
        else:
            # One Newton step of backward Euler from x, the exact diagonal derivative:
            # x += dt f / (1 - dt df/dx) (the seed's single-iteration implicit step).
            cm.methods[name] = BACKWARD_EULER
            out.append((name, x + DT * f / (1 - DT * a)))
    return out
