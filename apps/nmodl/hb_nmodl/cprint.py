"""cprint.py: sympy expressions to OpenCL C / CUDA / C11 text over `real` (every constant cast, guarded helpers through HB_KERNEL)."""
import sympy

from .errors import NmodlError
from .symfuncs import Exprelr, ExprelrD, Expm1

# Precedence of what an expression prints as (higher binds tighter).
_TERNARY, _OR, _AND, _REL, _ADD, _MUL, _UNARY, _ATOM = range(8)

_FUNCS = {sympy.exp: "exp", sympy.log: "log", sympy.sin: "sin", sympy.cos: "cos",
          sympy.tan: "tan", sympy.sinh: "sinh", sympy.cosh: "cosh", sympy.tanh: "tanh",
          sympy.atan: "atan", sympy.asin: "asin", sympy.acos: "acos", sympy.Abs: "fabs",
          sympy.floor: "floor", sympy.ceiling: "ceil", Expm1: "expm1", sympy.erf: "erf",
          Exprelr: "HB_KERNEL(hb_nmodl_exprelr)", ExprelrD: "HB_KERNEL(hb_nmodl_exprelr_d)"}
_RELS = {sympy.StrictLessThan: "<", sympy.LessThan: "<=", sympy.StrictGreaterThan: ">",
         sympy.GreaterThan: ">=", sympy.Equality: "==", sympy.Unequality: "!="}


def number(x):
    """A constant as real: (real)4, (real)0.1 (the nearest double, then rounded to real)."""
    if (isinstance(x, sympy.Integer) or isinstance(x, int)) and abs(int(x)) <= 2**53:
        return "(real)%d" % int(x)  # exact in a double; larger ones as floating literals
    f = float(x)
    if f != f or f in (float("inf"), float("-inf")):
        raise NmodlError("a constant (%s) does not fit a double" % sympy.N(x, 6))
    s = repr(f)
    if "e" not in s and "." not in s:
        s += ".0"
    return "(real)%s" % s


class CPrinter:
    def __init__(self, names):
        self.names = names  # Symbol -> C text

    def __call__(self, e):
        return self.p(e)[0]

    def wrap(self, e, prec):
        text, p = self.p(e)
        return "(%s)" % text if p < prec else text

    def p(self, e):
        if isinstance(e, sympy.Symbol):
            if e not in self.names:
                raise NmodlError("internal: no C name for %s" % e)
            return self.names[e], _ATOM
        if isinstance(e, sympy.Integer):
            v = int(e)
            return (number(e), _ATOM) if v >= 0 else ("-" + number(-e), _UNARY)
        if isinstance(e, (sympy.Rational, sympy.Float)):
            v = float(e)
            if v < 0:
                return "-" + number(-e), _UNARY
            if isinstance(e, sympy.Rational) and e.q < 10**6 and e.p < 10**15:
                return "%s / %s" % (number(sympy.Integer(e.p)), number(sympy.Integer(e.q))), _MUL
            return number(e), _ATOM
        if e is sympy.pi:
            return number(sympy.Float(sympy.pi, 20)), _ATOM
        if e is sympy.E:
            return "exp((real)1)", _ATOM
        if e is sympy.true:
            return "1", _ATOM
        if e is sympy.false:
            return "0", _ATOM
        if e.is_Add:
            return self.add(e)
        if e.is_Mul:
            return self.mul(e)
        if e.is_Pow:
            return self.pow(e)
        if isinstance(e, sympy.Piecewise):
            return self.piecewise(e)
        if type(e) in _RELS:
            return "%s %s %s" % (self.wrap(e.lhs, _ADD), _RELS[type(e)], self.wrap(e.rhs, _ADD)), _REL
        if isinstance(e, sympy.And):
            return " && ".join(self.wrap(a, _REL) for a in e.args), _AND
        if isinstance(e, sympy.Or):
            # && inside || in parentheses: the same C, and warning-free (-Wparentheses).
            return " || ".join(self.wrap(a, _REL) for a in e.args), _OR
        if isinstance(e, sympy.ITE):
            a, b, c = e.args
            return "%s ? %s : %s" % (self.wrap(a, _OR), self.wrap(b, _TERNARY + 1),
                                     self.wrap(c, _TERNARY + 1)), _TERNARY
        if isinstance(e, sympy.Not):
            return "!" + self.wrap(e.args[0], _ATOM), _UNARY
        if isinstance(e, (sympy.Min, sympy.Max)):
            name = "fmin" if isinstance(e, sympy.Min) else "fmax"
            args = [self.p(a)[0] for a in e.args]
            text = args[0]
            for a in args[1:]:
                text = "%s(%s, %s)" % (name, text, a)
            return text, _ATOM
        if isinstance(e, sympy.atan2):
            return "atan2(%s, %s)" % (self(e.args[0]), self(e.args[1])), _ATOM
        for cls, name in _FUNCS.items():
            if isinstance(e, cls):
                return "%s(%s)" % (name, ", ".join(self(a) for a in e.args)), _ATOM
        raise NmodlError("internal: cannot print %s (%s) as C" % (e, type(e).__name__))

    def add(self, e):
        terms = list(e.as_ordered_terms())
        # Symbols first, constants last: reads like the .mod file (v - e, not -e + v).
        terms.sort(key=lambda t: (1 if t.is_number else 0, 1 if t.could_extract_minus_sign() else 0))
        out = []
        for k, t in enumerate(terms):
            neg = t.could_extract_minus_sign()
            body = self.wrap(-t if neg else t, _ADD + 1 if k else _ADD)
            if k == 0:
                out.append(("-" + self.wrap(-t, _UNARY)) if neg else self.wrap(t, _ADD))
            else:
                out.append((" - " if neg else " + ") + body)
        return "".join(out), _ADD

    def mul(self, e):
        coeff, rest = e.as_coeff_Mul()
        if coeff < 0:
            return "-" + self.wrap(-e, _UNARY), _UNARY
        num, den = [], []
        if coeff != 1:
            if isinstance(coeff, sympy.Rational) and not isinstance(coeff, sympy.Integer) \
                    and coeff.q < 10**6 and coeff.p < 10**15:
                if coeff.p != 1:
                    num.append(number(sympy.Integer(coeff.p)))
                den.append(number(sympy.Integer(coeff.q)))
            else:
                num.append(number(coeff))
        for f in sympy.Mul.make_args(rest):
            if f.is_Pow and f.exp.is_Integer and f.exp < 0:
                den.append(self.wrap(sympy.Pow(f.base, -f.exp, evaluate=False)
                                     if f.exp != -1 else f.base, _MUL + 1))
            else:
                num.append(self.wrap(f, _MUL))
        text = " * ".join(num) if num else "(real)1"
        if den:
            d = den[0] if len(den) == 1 else "(%s)" % " * ".join(den)
            text = "%s / %s" % (text, d)
        return text, _MUL

    def pow(self, e):
        b, x = e.base, e.exp
        if x == sympy.Rational(1, 2):
            return "sqrt(%s)" % self(b), _ATOM
        if x == -1:
            return "(real)1 / %s" % self.wrap(b, _MUL + 1), _MUL
        if x.is_Integer and 2 <= int(x) <= 8:
            base = self.wrap(b, _MUL + 1)
            return " * ".join([base] * int(x)), _MUL
        if x.is_Integer and int(x) < 0:
            return "(real)1 / (%s)" % self.pow(sympy.Pow(b, -x, evaluate=False))[0], _MUL
        return "pow(%s, %s)" % (self(b), self(x)), _ATOM

    def piecewise(self, e):
        pairs = list(e.args)
        text = self.wrap(pairs[-1].expr, _TERNARY + 1)
        for pair in reversed(pairs[:-1]):
            text = "%s ? %s : %s" % (self.wrap(pair.cond, _OR), self.wrap(pair.expr, _TERNARY + 1),
                                    text)
        return text, _TERNARY
