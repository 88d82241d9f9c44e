"""arrays.py: NMODL arrays and FROM loops made scalar after parsing: each element k of an array a[N] becomes a variable a_k (shown as a[k]), every FROM loop is unrolled and every index folded to a constant."""
from . import ast
from .errors import NmodlError, Unsupported
from .lexer import Token

# Bounds against hostile input: elements of one array, and statements that
# all the FROM loops of one file unroll to.
MAX_SIZE = 1024
MAX_UNROLLED = 20000


def element(name, k):
    """The variable that holds element k of array name."""
    return "%s_%d" % (name, k)


class _Expander:
    def __init__(self, mod):
        self.mod = mod
        self.file = mod.file
        self.consts = {}
        for c in mod.constants:
            try:
                self.consts[c.name] = float(c.default)
            except (TypeError, ValueError):
                pass
        self.arrays = {}  # module arrays: name -> size
        self.unrolled = 0

    def err(self, msg, tok):
        return NmodlError(msg, self.file, tok.line, tok.col)

    def unsup(self, what, tok):
        return Unsupported(what, self.file, tok.line, tok.col)

    # Constants: array sizes, FROM bounds and indices
    def const(self, e, env, what):
        """e's value from numbers, DEFINEs, CONSTANTs and the FROM loops' variables."""
        if isinstance(e, ast.Num):
            return float(e.text)
        if isinstance(e, ast.Name):
            if e.name in env:
                return float(env[e.name])
            if e.name in self.consts:
                return self.consts[e.name]
        elif isinstance(e, ast.Unary) and e.op == "-":
            return -self.const(e.arg, env, what)
        elif isinstance(e, ast.Binary) and e.op in ("+", "-", "*", "/", "^"):
            a, b = self.const(e.left, env, what), self.const(e.right, env, what)
            try:
                if e.op == "+":
                    return a + b
                if e.op == "-":
                    return a - b
                if e.op == "*":
                    return a * b
                if e.op == "/":
                    return a / b
                return float(a ** b)
            except (OverflowError, ZeroDivisionError, TypeError):
                raise self.err("%s: cannot evaluate %s %s %s" % (what, a, e.op, b), e.tok)
        raise self.unsup("%s that is not a constant (numbers, DEFINEs, CONSTANTs and FROM "
                         "loops' variables)" % what, e.tok)

    def integer(self, e, env, what):
        x = self.const(e, env, what)
        if x != x or abs(x) > 2 ** 31 or x != int(x):
            raise self.err("%s is %s, not a whole number" % (what, x), e.tok)
        return int(x)

    def size(self, name, t):
        """Array name's size from its declaration's size token t."""
        if t.kind == "NUMBER":
            n = float(t.text)
        elif t.text in self.consts:
            n = self.consts[t.text]
        else:
            raise self.err("array %s: size %s is not a number or a DEFINE" % (name, t.text), t)
        if n != int(n) or not 1 <= n <= MAX_SIZE:
            raise self.unsup("array %s of %s elements (1 to %d)" % (name, t.text, MAX_SIZE), t)
        return int(n)

    # Declarations
    def declarations(self):
        mod = self.mod
        names = {v.name for v in mod.parameters + mod.assigned + mod.states + mod.constants}
        names |= set(mod.functions) | set(mod.derivatives)
        for lst in (mod.parameters, mod.assigned, mod.states):
            out = []
            for v in lst:
                if getattr(v, "size", None) is None:
                    out.append(v)
                    continue
                n = self.size(v.name, v.size)
                self.arrays[v.name] = n
                for k in range(n):
                    e = element(v.name, k)
                    if e in names:
                        raise self.err("array %s: its element %s[%d] is the variable %s, which "
                                       "the file declares too" % (v.name, v.name, k, e), v.tok)
                    mod.display[e] = "%s[%d]" % (v.name, k)
                    out.append(ast.Var(v.tok, name=e, default=v.default, units=v.units,
                                       lo=v.lo, hi=v.hi))
            lst[:] = out
        for attr in ("range", "global_"):
            lst = getattr(mod, attr)
            lst[:] = [e for n in lst for e in (
                [element(n, k) for k in range(self.arrays[n])] if n in self.arrays else [n])]

    # Blocks
    def blocks(self):
        mod = self.mod
        for attr in ("initial", "breakpoint"):
            body = getattr(mod, attr)
            if body is not None:
                setattr(mod, attr, self.body(body, {}, {}))
        for f in list(mod.derivatives.values()) + list(mod.functions.values()) + (
                [mod.net_receive] if mod.net_receive else []):
            # A function's argument of an array's name hides the array.
            f.body = self.body(f.body, {}, {a: None for a in f.args})
        if mod.net_initial is not None:
            mod.net_initial = self.body(mod.net_initial, {},
                                        {a: None for a in mod.net_receive.args})

    def array(self, name, scope):
        """name's size where it is an array here (a LOCAL array, else a module
        one that no argument or LOCAL hides), else None."""
        if name in scope:
            return scope[name]
        return self.arrays.get(name)

    def elem(self, name, index, env, scope, tok):
        n = self.array(name, scope)
        if n is None:
            raise self.err("%s[...]: %s is not an array" % (name, name), tok)
        k = self.integer(index, env, "the index of %s" % name)
        if not 0 <= k < n:
            raise self.err("%s[%d] is outside the array (%d elements)" % (name, k, n), tok)
        return element(name, k)

    def expr(self, e, env, scope):
        if isinstance(e, ast.Name):
            if e.name in env:
                return ast.Num(e.tok, text=str(env[e.name]))
            if self.array(e.name, scope) is not None:
                raise self.err("array %s read without an index" % e.name, e.tok)
            return e
        if isinstance(e, ast.Index):
            return ast.Name(e.tok, name=self.elem(e.name, e.index, env, scope, e.tok))
        if isinstance(e, ast.Unary):
            return ast.Unary(e.tok, op=e.op, arg=self.expr(e.arg, env, scope))
        if isinstance(e, ast.Binary):
            return ast.Binary(e.tok, op=e.op, left=self.expr(e.left, env, scope),
                              right=self.expr(e.right, env, scope))
        if isinstance(e, ast.CallExpr):
            return ast.CallExpr(e.tok, name=e.name, args=[self.expr(a, env, scope)
                                                         for a in e.args])
        return e  # Num, Str

    def target(self, s, env, scope):
        """The variable an assignment writes: an element, or a scalar."""
        if s.name in env:
            raise self.err("assignment to the FROM loop's variable %s" % s.name, s.tok)
        if getattr(s, "index", None) is not None:
            return self.elem(s.name, s.index, env, scope, s.tok)
        if self.array(s.name, scope) is not None:
            raise self.err("assignment to the whole array %s" % s.name, s.tok)
        return s.name

    def body(self, stmts, env, scope):
        out = []
        for s in stmts:
            self.count(s.tok)
            out.extend(self.stmt(s, env, scope))
        return out

    def room(self, tok, n):
        """Refuses n statements more past MAX_UNROLLED."""
        if self.unrolled + n > MAX_UNROLLED:
            raise self.unsup("FROM loops unrolled to more than %d statements" % MAX_UNROLLED, tok)

    def count(self, tok, n=1):
        self.room(tok, n)
        self.unrolled += n

    def stmt(self, s, env, scope):
        if isinstance(s, ast.Assign):
            return [ast.Assign(s.tok, name=self.target(s, env, scope),
                               expr=self.expr(s.expr, env, scope), index=None)]
        if isinstance(s, ast.DerivAssign):
            return [ast.DerivAssign(s.tok, name=self.target(s, env, scope),
                                    expr=self.expr(s.expr, env, scope), index=None)]
        if isinstance(s, ast.If):
            cond = None if s.cond is None else self.expr(s.cond, env, scope)
            return [ast.If(s.tok, cond=cond, then=self.body(s.then, env, scope),
                           orelse=self.body(s.orelse, env, scope))]
        if isinstance(s, ast.CallStmt):
            return [ast.CallStmt(s.tok, name=s.name, args=[self.expr(a, env, scope)
                                                           for a in s.args])]
        if isinstance(s, ast.Local):
            names, sizes = [], getattr(s, "sizes", None) or {}
            for n in s.names:
                t = sizes.get(n)
                if t is None:
                    scope[n] = None  # a scalar LOCAL hides a module array of its name
                    names.append(n)
                    continue
                size = self.size(n, t)
                scope[n] = size
                names.extend(element(n, k) for k in range(size))
            return [ast.Local(s.tok, names=names, sizes={})]
        if isinstance(s, ast.Reaction):
            kb = None if s.kb is None else self.expr(s.kb, env, scope)
            return [ast.Reaction(s.tok, lhs=self.terms(s.lhs, env, scope),
                                 rhs=self.terms(s.rhs, env, scope), kind=s.kind,
                                 kf=self.expr(s.kf, env, scope), kb=kb)]
        if isinstance(s, ast.Conserve):
            return [ast.Conserve(s.tok, lhs=self.expr(s.lhs, env, scope),
                                 total=self.expr(s.total, env, scope))]
        if isinstance(s, ast.Compartment):
            return self.compartment(s, env, scope)
        if isinstance(s, ast.From):
            return self.from_loop(s, env, scope)
        return [s]  # Solve

    def terms(self, terms, env, scope):
        out = []
        for coef, tok, index in terms:
            if index is not None:
                e = self.elem(tok.text, index, env, scope, tok)
                tok = Token(tok.kind, e, tok.line, tok.col, tok.pos, tok.end)
            elif self.array(tok.text, scope) is not None:
                raise self.err("array %s in a reaction without an index" % tok.text, tok)
            out.append((coef, tok))
        return out

    def compartment(self, s, env, scope):
        """`COMPARTMENT i, volume { A B }`: element k of each array named, of
        the volume at i = k (nocmodl's reading); without an index, scalars."""
        if s.var is None:
            for n in s.names:
                if self.array(n.text, scope) is not None:
                    raise self.err("array %s in a COMPARTMENT without an index variable "
                                   "(COMPARTMENT i, volume { %s })" % (n.text, n.text), n)
            return [ast.Compartment(s.tok, volume=self.expr(s.volume, env, scope),
                                    names=s.names, var=None)]
        out = []
        for n in s.names:
            size = self.array(n.text, scope)
            if size is None:
                raise self.err("%s in COMPARTMENT %s, ...: not an array" % (n.text, s.var.text),
                               n)
            self.count(n, size)
            for k in range(size):
                inner = dict(env, **{s.var.text: k})
                t = Token(n.kind, element(n.text, k), n.line, n.col, n.pos, n.end)
                out.append(ast.Compartment(s.tok, volume=self.expr(s.volume, inner, scope),
                                           names=[t], var=None))
        return out

    def from_loop(self, s, env, scope):
        """Unrolled: FROM i = lo TO hi BY step runs i = lo, lo + step, ... while
        i <= hi (>= for a negative step), as NEURON's C loop does."""
        v = s.var.text
        if v in env:
            raise self.err("FROM loop over %s inside a loop over %s" % (v, v), s.var)
        lo = self.integer(s.lo, env, "FROM's start")
        hi = self.integer(s.hi, env, "FROM's end (TO)")
        by = 1 if s.by is None else self.integer(s.by, env, "FROM's step (BY)")
        if by == 0:
            raise self.err("FROM loop with a step of 0", s.tok)
        n = max(0, (hi - lo) // by + 1)
        self.room(s.tok, n * max(1, len(s.body)))  # before unrolling it
        out = []
        for k in range(n):
            inner = dict(env, **{v: lo + k * by})
            out.append(ast.If(s.tok, cond=None, then=self.body(s.body, inner, scope), orelse=[]))
        return out


def expand(mod):
    """mod with its arrays made scalars and its FROM loops unrolled (in place)."""
    x = _Expander(mod)
    x.declarations()
    x.blocks()
    return mod
