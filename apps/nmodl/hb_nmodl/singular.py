"""singular.py: finds removable singularities N/(A exp(u) + B) (0/0 at some v) and rewrites them through the guarded exprelr."""
import sympy

from .symfuncs import Exprelr


class Singularity:
    """One removable singularity: where it was found, the voltage(s) of 0/0, the original quotient."""

    def __init__(self, where, roots, expr):
        self.where = where
        self.roots = roots  # sympy expressions (numbers when the root depends on no parameter)
        self.expr = expr

    def roots_text(self):
        """The roots as the .mod file names things (p_vshift - 38 -> vshift - 38)."""
        out = []
        for r in self.roots:
            if r.is_Number:
                out.append(repr(float(r)).replace(".0", "") if float(r) == int(float(r)) and
                           abs(float(r)) < 1e15 else repr(float(r)))
                continue
            names = {s: sympy.Symbol(s.name[2:]) for s in r.free_symbols
                     if s.name[:2] in ("p_", "s_")}
            out.append(str(r.xreplace(names)))
        return out

    def __repr__(self):
        return "Singularity(%s, v=%s)" % (self.where, ", ".join(self.roots_text()))


def _split_exp(d, v):
    """d = A*exp(u) + B with A, B free of v and u depending on v: (A, u, B), else None."""
    scale = sympy.Integer(1)
    if d.is_Mul:  # k * (A exp(u) + B): constant factors out
        rest = []
        for f in d.args:
            if f.has(v):
                rest.append(f)
            else:
                scale = scale * f
        if len(rest) != 1:
            return None
        d = rest[0]
    if not d.is_Add:
        return None
    exp_terms, others = [], []
    for term in d.args:
        (exp_terms if term.has(v) else others).append(term)
    if len(exp_terms) != 1:
        return None
    coeff, factors = sympy.Integer(1), []
    for f in sympy.Mul.make_args(exp_terms[0]):
        if f.has(v):
            factors.append(f)
        else:
            coeff = coeff * f
    if len(factors) != 1 or not isinstance(factors[0], sympy.exp):
        return None
    return scale * coeff, factors[0].args[0], scale * sympy.Add(*others)


def _fix_mul(e, v, where, found):
    factors = list(e.args)
    for k, f in enumerate(factors):
        if not (f.is_Pow and f.exp == -1 and f.base.has(sympy.exp) and f.base.has(v)):
            continue
        split = _split_exp(f.base, v)
        if split is None:
            continue
        a, u, b = split
        ratio = -b / a
        if ratio.is_positive is not True:
            continue
        w = sympy.expand(u - sympy.log(ratio))
        poly, rest = [], []
        for j, g in enumerate(factors):
            if j == k:
                continue
            (poly if g.has(v) and g.is_polynomial(v) else rest).append(g)
        if not poly:
            continue  # the numerator does not vanish with the denominator: a true pole
        q = sympy.cancel(sympy.Mul(*poly) / w)
        _, den = sympy.fraction(q)
        if den.has(v):
            continue
        try:
            roots = sympy.solve(w, v)
        except Exception:  # sympy gives up on some exponents: the rewrite is still exact
            roots = []
        if not any(f.where == where and f.roots == roots for f in found):
            found.append(Singularity(where, roots, e))
        return sympy.Mul(*rest) * q * Exprelr(w) / (-b)
    return e


def remove_singularities(expr, v, where, found):
    """expr with every removable exp-singularity in v rewritten; each one appended to found."""

    def rec(e):
        if e.is_Atom:
            return e
        args = tuple(rec(a) for a in e.args)
        if args != e.args:
            e = e.func(*args)
        if e.is_Mul:
            e = _fix_mul(e, v, where, found)
        return e

    if not isinstance(expr, sympy.Basic):
        return expr
    return rec(expr)
