"""symfuncs.py: the sympy functions the generated code calls by name: guarded x/(exp(x)-1), its derivative, expm1; and Frozen, a term kept out of Newton matrices."""
import sympy


class Exprelr(sympy.Function):
    """x/(exp(x)-1), 1 at 0; the generated code evaluates it with a series near 0."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x.is_zero:
            return sympy.Integer(1)
        return None

    def fdiff(self, argindex=1):
        return ExprelrD(self.args[0])

    def _eval_evalf(self, prec):
        x = self.args[0].evalf(prec)
        if not x.is_number:
            return None
        if x == 0:
            return sympy.Float(1, prec)
        return (x / (sympy.exp(x) - 1)).evalf(prec)


class ExprelrD(sympy.Function):
    """d/dx of x/(exp(x)-1), -1/2 at 0; also guarded by a series near 0."""

    nargs = 1

    @classmethod
    def eval(cls, x):
        if x.is_zero:
            return sympy.Rational(-1, 2)
        return None


class Expm1(sympy.Function):
    """exp(x)-1 without cancellation (C's expm1)."""

    nargs = 1

    def fdiff(self, argindex=1):
        return sympy.exp(self.args[0])

    def _eval_evalf(self, prec):
        x = self.args[0].evalf(prec)
        if not x.is_number:
            return None
        return (sympy.exp(x) - 1).evalf(prec)


class Frozen(sympy.Function):
    """A term the Newton matrix leaves out (d/dx 0): a KINETIC `~ A << (flux)`, which
    NEURON's sparse solver puts in the right-hand side only; removed (unfreeze) before
    code is printed."""

    nargs = 1

    def fdiff(self, argindex=1):
        return sympy.Integer(0)


def unfreeze(e):
    return e.replace(Frozen, lambda a: a) if isinstance(e, sympy.Basic) else e
