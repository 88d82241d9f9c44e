"""loader.py: a Myokit model (.mmt, or CellML through Myokit's importer) as the translator's model form: states, parameters and each state's derivative as one sympy expression."""
import os
import re

import sympy

from hb_nmodl.model import V  # the symbol the singularity remover and printer know as v
from hb_nmodl.numerics import state_symbol
from hb_nmodl.singular import remove_singularities

from .errors import CardiacError, Unsupported

PACE = sympy.Symbol("pace", real=True)
# Bindings a model may carry without using them (Myokit's benchmarking
# variables); used, they are refused.
_IDLE_BINDINGS = ("realtime", "evaluations")


class Param:
    def __init__(self, name, qname, default, unit):
        self.name = name        # C-safe name (component_variable)
        self.qname = qname      # Myokit's name (component.variable)
        self.default = default  # float
        self.unit = unit        # text or ""


class CardiacModel:
    """A cell model: states (V first), parameters (the model's literal constants), derivatives."""

    def __init__(self, name, source):
        self.name = name
        self.source = source
        self.states = []     # C-safe names, V first
        self.qnames = []     # Myokit names of the states
        self.init = []       # initial values (float)
        self.units = []      # state units (text)
        self.params = []     # Param
        self.rhs = {}        # state name -> sympy expression of V, s_*, p_*, pace
        self.singularities = []
        self.dropped_guards = []  # qnames of `if(x == c, limit, quotient)` guards replaced
        self.cancelled = []  # qnames whose 1 - f sums were put over one denominator
        self.stimulus_param = None  # the parameter holding the stimulus amplitude, if found
        self.protocol = None  # (start, duration, period) of a CellML file's embedded stimulus

    def symbol(self, name):
        return state_symbol(name) if name != self.states[0] else V


def cname(text):
    """Myokit's qualified name as a C identifier: ina.m -> ina_m."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


def model_cname(model_name, path):
    base = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"_+", "_", cname(base.lower())).strip("_") or "model"


def load(path, name=None):
    """Reads path (.mmt or .cellml) through Myokit; returns a CardiacModel or raises CardiacError."""
    try:
        import myokit
    except ImportError:
        raise CardiacError("needs the Python package myokit (pip install myokit)", path)
    protocol = None
    try:
        if path.endswith(".cellml"):
            import myokit.formats
            model = myokit.formats.importer("cellml").model(path)
        else:
            model, proto, _ = myokit.load(path)
            if proto is not None and proto.events():
                ev = proto.events()[0]
                protocol = (ev.start(), ev.duration(), ev.period())
    except Exception as e:  # Myokit's own parse errors, whatever their class
        raise CardiacError("Myokit cannot read it: %s" % str(e).splitlines()[0], path)
    if model.binding("pace") is None or path.endswith(".cellml"):
        # A CellML file keeps its stimulus as a function of time: Myokit's
        # guess turns a periodic one into pace x amplitude and a protocol.
        import myokit.lib.guess as guess
        try:
            proto = guess.remove_embedded_protocol(model)
        except Exception:
            proto = None
        if proto is not None:
            ev = proto.events()[0]
            protocol = (ev.start(), ev.duration(), ev.period())
    try:
        model.validate()
    except Exception as e:
        raise CardiacError("Myokit finds the model invalid: %s" % str(e).splitlines()[0], path)
    cm = _convert(model, path, name or model_cname(model.name(), path))
    cm.protocol = protocol
    return cm


def _membrane_potential(model, path):
    v = model.label("membrane_potential")
    if v is None:
        import myokit.lib.guess as guess
        try:
            v = guess.membrane_potential(model)
        except Exception:
            v = None
    if v is None:
        raise Unsupported("model: no variable labelled membrane_potential", path)
    if not v.is_state():
        raise Unsupported("%s: the membrane potential is not a state" % v.qname(), path)
    return v


def _convert(model, path, name):
    import myokit
    from myokit.formats.sympy import SymPyExpressionWriter

    cm = CardiacModel(name, os.path.basename(path))
    vvar = _membrane_potential(model, path)
    states = [vvar] + [s for s in model.states() if s is not vvar]
    sym = {}  # Myokit variable -> sympy replacement
    used_cnames = set()

    def unique(text):
        c = cname(text)
        while c in used_cnames:
            c += "_"
        used_cnames.add(c)
        return c

    for k, s in enumerate(states):
        c = unique(s.qname())
        cm.states.append(c)
        cm.qnames.append(s.qname())
        try:
            cm.init.append(float(s.initial_value(True)))
        except Exception as e:
            raise Unsupported("%s: initial value is not a number (%s)" % (s.qname(), e), path)
        cm.units.append(str(s.unit()) if s.unit() is not None else "")
        sym[s] = V if k == 0 else state_symbol(c)

    class Writer(SymPyExpressionWriter):
        # Numbers as the exact decimals written (Myokit gives floats): the
        # singularity finder needs exact roots, and sympy would fold floats
        # (0.32 (V + 47.13) -> 0.32 V + 15.0816000000002) before any rewrite.
        def _ex_number(self, e):
            return sympy.Rational(repr(float(e.eval())))

    writer = Writer()
    writer.set_lhs_function(lambda lhs: "myokit:" + lhs.var().qname())
    stim = model.label("stimulus_current") or model.binding("stimulus_current")

    # Bound variables: pace is the protocol's input, the diffusion current 0
    # (a fiber adds diffusion by operator splitting), time and any other
    # binding refused where an equation uses it.
    bound = {}
    for var in model.variables(deep=True):
        b = var.binding()
        if b is None:
            continue
        if b == "pace":
            bound[var] = PACE
        elif b == "diffusion_current":
            bound[var] = sympy.Integer(0)
        else:
            bound[var] = b  # refused if used (checked in expression order below)

    # Walk every variable the states need, in an order that solves them.
    order = _solve_order(model, states, path)
    value = {}
    for var in order:
        if var in sym:
            continue
        if var in bound:
            b = bound[var]
            if isinstance(b, str):
                why = ("uses time (bound to 'time'): time-dependent terms other than pace are "
                       "not supported" if b == "time" else
                       "uses the external input bound to '%s'" % b)
                raise Unsupported("%s: %s" % (var.qname(), why), path)
            value[var] = b
            continue
        if var.is_literal():
            c = unique(var.qname())
            try:
                d = float(var.eval())
            except Exception as e:
                raise Unsupported("%s: constant that is not a number (%s)" % (var.qname(), e), path)
            cm.params.append(Param(c, var.qname(), d, str(var.unit()) if var.unit() else ""))
            p = sympy.Symbol("p_" + c, real=True)
            value[var] = p
            if cm.stimulus_param is None and _is_stimulus_amplitude(var, stim):
                cm.stimulus_param = c
            continue
        value[var] = _expr(writer, var.rhs(), sym, value, var, path, cm)
    for k, s in enumerate(states):
        cm.rhs[cm.states[k]] = _expr(writer, s.rhs(), sym, value, s, path, cm)
    # Parameters in the file's order (prm[] slots do not depend on hashing).
    place = {v.qname(): k for k, v in enumerate(model.variables(deep=True))}
    cm.params.sort(key=lambda p: place[p.qname])
    return cm


def _is_stimulus_amplitude(var, stim):
    """var is a constant beside pace in the stimulus current's equation (i_stim = pace * amp)."""
    for user in var.refs_by():
        refs = [r.var() for r in user.rhs().references()]
        if user is stim or any(w.binding() == "pace" for w in refs):
            return True
    return False


def _solve_order(model, states, path):
    """Every non-state variable the states' derivatives depend on, dependencies first."""
    seen, out = set(), []

    def visit(var, stack):
        if var in seen:
            return
        if var in stack:
            raise Unsupported("%s: cyclic definition" % var.qname(), path)
        stack.add(var)
        if not var.is_state() and var.rhs() is not None:
            for r in sorted(var.rhs().references(), key=lambda r: r.var().qname()):
                if not r.var().is_state():
                    visit(r.var(), stack)
        stack.discard(var)
        seen.add(var)
        out.append(var)

    for s in states:
        for r in sorted(s.rhs().references(), key=lambda r: r.var().qname()):
            if not r.var().is_state():
                visit(r.var(), set())
    return out


_SUPPORTED = (sympy.Add, sympy.Mul, sympy.Pow, sympy.exp, sympy.log, sympy.sin, sympy.cos,
              sympy.tan, sympy.asin, sympy.acos, sympy.atan, sympy.Abs, sympy.floor,
              sympy.ceiling, sympy.Piecewise, sympy.Symbol, sympy.Number, sympy.And,
              sympy.Or, sympy.Not, sympy.logic.boolalg.BooleanAtom, sympy.core.relational.Relational,
              sympy.functions.elementary.piecewise.ExprCondPair, sympy.NumberSymbol)


def _expr(writer, rhs, sym, value, var, path, cm):
    """The Myokit expression rhs as sympy over states, parameters and pace (intermediates inlined)."""
    if rhs is None:
        raise Unsupported("%s: no equation" % var.qname(), path)
    try:
        e = writer.ex(rhs)
    except Exception as ex:
        raise Unsupported("%s: %s" % (var.qname(), ex), path)
    repl = {}
    for r in rhs.references():
        w = r.var()
        s = sympy.Symbol("myokit:" + w.qname())
        if w in sym:
            repl[s] = sym[w]
        elif w in value:
            repl[s] = value[w]
        else:
            raise CardiacError("internal: %s used before it is known" % w.qname(), path)
    if any(isinstance(x, sympy.Derivative) for x in sympy.preorder_traversal(e)):
        raise Unsupported("%s: uses a derivative" % var.qname(), path)
    for node in sympy.preorder_traversal(e):
        if not isinstance(node, _SUPPORTED):
            raise Unsupported("%s: %s is not supported" % (var.qname(), type(node).__name__), path)
    e = _cancel_constants(e, repl, cm, var)
    e = e.xreplace(repl)
    return _drop_guards(e, var, cm)


def _has_reciprocal_exp(e):
    return any(x.is_Pow and x.exp.is_negative and x.base.has(sympy.exp)
               for x in sympy.preorder_traversal(e))


def _exp_args_expanded(e):
    """exp((a + v)/b) and exp(a/b + v/b) made one spelling (expand distributes the first)."""
    return e.replace(lambda x: isinstance(x, sympy.exp),
                     lambda x: sympy.exp(sympy.expand(x.args[0])))


def _divide_through(num, den):
    """c exp(u) / (D (a + b exp(u))) as c / (D (a exp(-u) + b)): exp(u) overflowing (u a
    large positive number in float) then gives 0 or the limit, never inf / inf. None when the
    numerator is not one exponential term over a matching denominator factor."""
    exps = [f for f in sympy.Mul.make_args(num) if isinstance(f, sympy.exp)]
    if not num.is_Add and not exps:
        return num / den  # a constant over the denominator: nothing can overflow anew
    if num.is_Add or len(exps) != 1:
        return None
    e = exps[0]
    factors = list(sympy.Mul.make_args(den))
    for k, f in enumerate(factors):
        if f.is_Add and f.has(e):
            flipped = sympy.Add(*[t.xreplace({e: 1}) if t.has(e) else t * sympy.exp(-e.args[0])
                                  for t in f.args])
            if flipped.has(e):
                continue
            rest = sympy.Mul(*(factors[:k] + factors[k + 1:]))
            return (num / e) / (rest * flipped)
    return None


def _cancel_constants(e, repl, cm, var):
    """1 - (p + 1/(1 + exp(u)))/(1 + p) and the like: a sum of a constant and fractions of
    exponentials that cancels to a small value (a steady state near 1 subtracted from 1) loses
    every digit in float, and a ratio of two such values (Decker 2009's delta_I) becomes 0/0.
    Such a sum of the equation (its own terms, after substitution) is put over one denominator
    and its numerator expanded: the constants cancel exactly and exp(u) is left."""
    sub = {}
    for node in sympy.preorder_traversal(e):
        if not node.is_Add or not any(t.is_Number for t in node.args):
            continue
        full = node.xreplace(repl)
        if not _has_reciprocal_exp(full) or sympy.count_ops(full) > 120:
            continue
        num, den = sympy.fraction(sympy.together(full))
        num2 = _exp_args_expanded(sympy.expand(num, power_exp=False))
        den = _exp_args_expanded(den)
        if num2.is_Add and len(num2.args) >= len(full.args):
            continue  # nothing cancelled
        new = _divide_through(num2, den)
        if new is None:
            continue
        # exp(u) exp(-u) from a rewritten inner sum would be inf x 0 in float.
        sub[node] = sympy.powsimp(new, combine="exp")
        cm.cancelled.append(var.qname())
    return e.xreplace(sub) if sub else e


def _drop_guards(e, var, cm):
    """if(c == k, limit, quotient): the model's own guard of a removable 0/0 is replaced by the
    quotient with its singularity removed (the guard catches only the exact point, where float
    loses every digit beside it)."""
    if not e.has(sympy.Piecewise):
        return e

    def rec(x):
        if x.is_Atom:
            return x
        args = tuple(rec(a) for a in x.args)
        if args != x.args:
            x = x.func(*args)
        if isinstance(x, sympy.Piecewise) and len(x.args) == 2 and x.args[1].cond is sympy.true:
            cond = x.args[0].cond
            if isinstance(cond, sympy.Eq) and cond.has(V):
                found = []
                fixed = remove_singularities(x.args[1].expr, V, var.qname(), found)
                if found:
                    cm.singularities.extend(found)
                    cm.dropped_guards.append(var.qname())
                    return fixed
        return x

    return rec(e)
