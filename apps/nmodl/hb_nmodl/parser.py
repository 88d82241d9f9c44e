"""parser.py: recursive-descent parser for the NMODL subset hinesbatch translates (docs/mechanisms.md); the rest is refused where it starts."""
from . import ast
from .arrays import expand as expand_arrays
from .errors import NmodlError, Unsupported
from .lexer import tokenize
from .units import constant as unit_constant

# Top-level blocks of NMODL that the subset refuses, with what the message calls them.
_UNSUPPORTED_BLOCKS = {
    "LINEAR": "LINEAR block", "NONLINEAR": "NONLINEAR block", "DISCRETE": "DISCRETE block",
    "PARTIAL": "PARTIAL block", "FUNCTION_TABLE": "FUNCTION_TABLE",
    "CONSTRUCTOR": "CONSTRUCTOR block", "DESTRUCTOR": "DESTRUCTOR block",
    "BEFORE": "BEFORE block", "AFTER": "AFTER block", "LAG": "LAG statement",
    "TERMINAL": "TERMINAL block", "MATCH": "MATCH block", "STEPPED": "STEPPED block",
    "SENS": "SENS statement", "CONSERVE": "CONSERVE statement",
}
_UNSUPPORTED_NEURON = {
    "POINTER": "POINTER variables", "BBCOREPOINTER": "BBCOREPOINTER variables",
    "ARTIFICIAL_CELL": "ARTIFICIAL_CELL",
    "EXTERNAL": "EXTERNAL variables",
}
_UNSUPPORTED_STMTS = {
    "WHILE": "WHILE loop", "FOR_NETCONS": "FOR_NETCONS",
    "WATCH": "WATCH statement",
    "COMPARTMENT": "COMPARTMENT statement outside a KINETIC block",
    "LONGITUDINAL_DIFFUSION": "LONGITUDINAL_DIFFUSION",
}


class Parser:
    def __init__(self, src, file="<input>"):
        self.src = src
        self.file = file
        self.toks = tokenize(src, file)
        self.i = 0
        self.mod = ast.Module(file)
        self._kinetic = False  # inside a KINETIC block: reactions and CONSERVE allowed
        self._mutex = None  # the open MUTEXLOCK's token
        self._depth = 0  # blocks open; the MUTEXLOCK's is _mutex_depth
        self._mutex_depth = 0
        self._net_top = None  # the depth of NET_RECEIVE's own statements while it is read
        self._guarded = []  # (name, its token, 'PROTECT' or 'MUTEXLOCK'): checked once read
        self._unit_defs = {}  # UNITS' (name) = (expression), for the constants after them

    # Token helpers
    def peek(self, k=0):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self):
        t = self.toks[self.i]
        if t.kind != "EOF":
            self.i += 1
        return t

    def at(self, text, k=0):
        t = self.peek(k)
        return t.kind in ("OP", "NAME") and t.text == text

    def error(self, msg, tok=None):
        tok = tok or self.peek()
        return NmodlError(msg, self.file, tok.line, tok.col)

    def unsupported(self, what, tok=None):
        tok = tok or self.peek()
        return Unsupported(what, self.file, tok.line, tok.col)

    def expect(self, text):
        t = self.peek()
        if not self.at(text):
            raise self.error("expected '%s', found %s" % (text, _describe(t)), t)
        return self.next()

    def name(self):
        t = self.peek()
        if t.kind != "NAME":
            raise self.error("expected a name, found %s" % _describe(t), t)
        return self.next()

    def units(self):
        """Skips '(units)' (parsed and ignored); returns its text or None."""
        if not self.at("("):
            return None
        open_tok = self.next()
        depth = 1
        while depth:
            t = self.next()
            if t.kind == "EOF":
                raise self.error("unclosed '(' of units", open_tok)
            if t.text == "(" and t.kind == "OP":
                depth += 1
            elif t.text == ")" and t.kind == "OP":
                depth -= 1
                end = t.pos
        return self.src[open_tok.end:end].strip()

    def signed_number(self):
        t = self.peek()
        sign = ""
        if self.at("-") or self.at("+"):
            sign = "-" if self.next().text == "-" else ""
            t = self.peek()
        if t.kind != "NUMBER":
            raise self.error("expected a number, found %s" % _describe(t), t)
        self.next()
        return sign + t.text

    # Top level
    def parse(self):
        while self.peek().kind != "EOF":
            t = self.peek()
            if t.kind != "NAME":
                raise self.error("expected a block, found %s" % _describe(t), t)
            w = t.text
            if w in ("UNITSON", "UNITSOFF", "THREADSAFE"):
                self.next()
            elif w == "NEURON":
                self.next()
                self.neuron_block()
            elif w == "UNITS":
                self.next()
                self.units_block()
            elif w in ("PARAMETER", "ASSIGNED", "STATE", "CONSTANT"):
                self.next()
                self.var_block(w)
            elif w == "LOCAL":  # module-level LOCAL: a variable of the mechanism
                self.next()
                for n, size in self.local_names():
                    self.mod.assigned.append(ast.Var(n, name=n.text, default=None, units=None,
                                                     lo=None, hi=None, size=size))
            elif w == "INDEPENDENT":
                self.next()
                self.skip_braced()
            elif w == "DEFINE":
                self.next()
                n = self.name()
                self.mod.constants.append(ast.Var(n, name=n.text, default=self.signed_number(),
                                                  units=None, lo=None, hi=None))
            elif w in ("INITIAL", "BREAKPOINT"):
                self.next()
                if getattr(self.mod, w.lower()) is not None:
                    raise self.error("second %s block" % w, t)
                setattr(self.mod, w.lower(), self.block())
            elif w in ("DERIVATIVE", "KINETIC"):
                self.next()
                n = self.name()
                if n.text in self.mod.derivatives:
                    raise self.error("%s %s defined twice" % (w, n.text), n)
                self._kinetic = w == "KINETIC"
                self.mod.derivatives[n.text] = ast.Func(n, kind=w, name=n.text, args=[],
                                                        body=self.block())
                self._kinetic = False
            elif w in ("FUNCTION", "PROCEDURE"):
                self.next()
                n = self.name()
                args = self.arg_list()
                if self.at("("):
                    self.units()
                if n.text in self.mod.functions:
                    raise self.error("%s %s defined twice" % (w, n.text), n)
                self.mod.functions[n.text] = ast.Func(n, kind=w, name=n.text, args=args,
                                                      body=self.block())
            elif w == "NET_RECEIVE":
                self.next()
                args = self.arg_list()
                self._net_top = self._depth + 1  # its INITIAL sits at the block's own level
                try:
                    body = self.block()
                finally:
                    self._net_top = None
                self.mod.net_receive = ast.Func(t, kind=w, name=w, args=args, body=body)
            elif w in _UNSUPPORTED_BLOCKS:
                raise self.unsupported(_UNSUPPORTED_BLOCKS[w], t)
            else:
                raise self.unsupported("block %s" % w, t)
        for name, tok, guard in self._guarded:
            if name in self.mod.global_:
                raise self.unsupported(
                    "assignment to GLOBAL %s under %s (a value shared by every instance, as a "
                    "count or sum over them; hinesbatch keeps each instance's values apart)"
                    % (name, guard), tok)
        return expand_arrays(self.mod)

    def skip_braced(self):
        open_tok = self.expect("{")
        depth = 1
        while depth:
            t = self.next()
            if t.kind == "EOF":
                raise self.error("unclosed '{'", open_tok)
            if t.kind == "OP" and t.text == "{":
                depth += 1
            elif t.kind == "OP" and t.text == "}":
                depth -= 1

    def array_size(self):
        """`[N]` after a declared name: N a number or a DEFINE'd name (checked
        when the arrays are expanded, arrays.py); None where no '[' follows."""
        if not self.at("["):
            return None
        self.next()
        t = self.peek()
        if t.kind not in ("NUMBER", "NAME"):
            raise self.error("expected an array size, found %s" % _describe(t), t)
        self.next()
        self.expect("]")
        return t

    def local_names(self):
        """A LOCAL's names, each with its array size token (None: a scalar)."""
        out = [(self.name(), self.array_size())]
        while self.at(","):
            self.next()
            out.append((self.name(), self.array_size()))
        return out

    def index(self):
        """`[expression]` after a name (an array's element), or None."""
        if not self.at("["):
            return None
        self.next()
        e = self.expression()
        self.expect("]")
        return e

    def name_list(self):
        names = [self.name()]
        while self.at(","):
            self.next()
            names.append(self.name())
        return names

    def arg_list(self):
        self.expect("(")
        args = []
        while not self.at(")"):
            n = self.name()
            self.units()
            args.append(n.text)
            if not self.at(")"):
                self.expect(",")
        self.expect(")")
        return args

    def neuron_block(self):
        self.expect("{")
        m = self.mod
        while not self.at("}"):
            t = self.name()
            w = t.text
            if w in ("SUFFIX", "POINT_PROCESS"):
                if m.suffix or m.point_process:
                    raise self.error("second SUFFIX or POINT_PROCESS", t)
                n = self.name()
                if w == "SUFFIX":
                    m.suffix = (n.text, n)
                else:
                    m.point_process = (n.text, n)
            elif w == "USEION":
                n = self.name()
                ion = ast.Ion(n, name=n.text, read=[], write=[], valence=None)
                while self.at("READ") or self.at("WRITE") or self.at("VALENCE"):
                    k = self.next().text
                    if k == "VALENCE":
                        ion.valence = self.signed_number()
                    else:
                        getattr(ion, k.lower()).extend(x.text for x in self.name_list())
                if self.at("REPRESENTS"):
                    self.next()
                    self.skip_ontology()
                m.ions.append(ion)
            elif w == "NONSPECIFIC_CURRENT":
                m.nonspecific.extend(x.text for x in self.name_list())
            elif w == "ELECTRODE_CURRENT":
                m.electrode.extend(x.text for x in self.name_list())
            elif w == "RANGE":
                m.range.extend(x.text for x in self.name_list())
            elif w == "GLOBAL":
                m.global_.extend(x.text for x in self.name_list())
            elif w == "THREADSAFE":
                pass
            elif w == "REPRESENTS":
                self.skip_ontology()
            elif w in _UNSUPPORTED_NEURON:
                raise self.unsupported(_UNSUPPORTED_NEURON[w], t)
            else:
                raise self.unsupported("NEURON statement %s" % w, t)
        self.next()

    def skip_ontology(self):
        """REPRESENTS's term (one ONTOLOGY token from the lexer): documentation."""
        if self.peek().kind != "ONTOLOGY":
            raise self.error("REPRESENTS without an ontology term")
        self.next()

    def units_block(self):
        self.expect("{")
        while not self.at("}"):
            t = self.peek()
            if self.at("("):  # (mV) = (millivolt): a unit name, kept for the constants
                name = self.units()
                self.expect("=")
                defn = self.units()
                if name and defn:
                    self._unit_defs[name.strip()] = defn
            elif t.kind == "NAME":  # FARADAY = (faraday) (coulomb): a physical constant
                self.next()
                self.expect("=")
                ut = self.peek()
                if self.at("("):
                    first = self.units()
                    second = self.units()
                    value = unit_constant(first, second or "1", self._unit_defs)
                    if value is None:
                        raise self.unsupported("unit constant (%s) (%s)" % (first, second), ut)
                else:
                    value = self.signed_number()
                    self.units()
                self.mod.constants.append(ast.Var(t, name=t.text, default=value, units=None,
                                                  lo=None, hi=None))
            else:
                raise self.error("expected a unit definition, found %s" % _describe(t), t)
        self.next()

    def var_block(self, kind):
        self.expect("{")
        while not self.at("}"):
            if self.at("UNITSON") or self.at("UNITSOFF"):
                self.next()
                continue
            n = self.name()
            size = self.array_size()
            if size is not None and kind == "CONSTANT":
                raise self.unsupported("CONSTANT array %s" % n.text, n)
            var = ast.Var(n, name=n.text, default=None, units=None, lo=None, hi=None, size=size)
            if self.at("="):
                self.next()
                var.default = self.signed_number()
            var.units = self.units()
            if self.at("<"):
                self.next()
                var.lo = self.signed_number()
                if self.at(","):
                    self.next()
                    var.hi = self.signed_number()
                self.expect(">")
            if kind == "STATE" and self.at("FROM"):  # FROM a TO b: bounds, ignored
                self.next()
                self.signed_number()
                self.expect("TO")
                self.signed_number()
            if self.at("REPRESENTS"):
                self.next()
                self.skip_ontology()
            {"PARAMETER": self.mod.parameters, "CONSTANT": self.mod.constants,
             "ASSIGNED": self.mod.assigned, "STATE": self.mod.states}[kind].append(var)
        self.next()

    # Statements
    def block(self):
        self.expect("{")
        locked = self._mutex
        self._depth += 1
        body = []
        while not self.at("}"):
            if self.peek().kind == "EOF":
                raise self.error("missing '}'")
            s = self.statement()
            if s is not None:
                body.append(s)
        if self._mutex is not locked:
            raise self.error("MUTEXLOCK without its MUTEXUNLOCK in the same block", self._mutex)
        self._depth -= 1
        self.next()
        return body

    def guarded(self, t):
        """`PROTECT assignment`, `MUTEXLOCK` and `MUTEXUNLOCK`: NEURON's guards
        of a value that threads share. Each instance here owns every value it
        assigns (a GLOBAL assigned is per instance too), so a guard changes
        nothing; a GLOBAL assigned under one is refused once the file is read
        (parse), since the guard means a value shared by every instance (a
        count or sum over them), which hinesbatch does not keep."""
        w = t.text
        self.next()
        if w == "PROTECT":
            s = self.statement()
            if not isinstance(s, ast.Assign):
                raise self.error("PROTECT guards an assignment", t)
            self._guarded.append((s.name, s.tok, w))
            return s
        if w == "MUTEXLOCK":
            if self._mutex:
                raise self.error("MUTEXLOCK inside MUTEXLOCK (line %d)" % self._mutex.line, t)
            self._mutex, self._mutex_depth = t, self._depth
        else:
            if not self._mutex or self._mutex_depth != self._depth:
                raise self.error("MUTEXUNLOCK without a MUTEXLOCK in its block", t)
            self._mutex = None
        return None

    def statement(self):
        t = self.peek()
        if t.kind == "OP" and t.text == "{":
            return ast.If(t, cond=None, then=self.block(), orelse=[])  # a plain nested block
        if t.kind == "OP" and t.text == "~":
            if not self._kinetic:
                raise self.unsupported("reaction statement '~' outside a KINETIC block", t)
            return self.reaction()
        if t.kind != "NAME":
            raise self.error("expected a statement, found %s" % _describe(t), t)
        w = t.text
        if w in ("UNITSON", "UNITSOFF"):
            self.next()
            return None
        if w == "LOCAL":
            self.next()
            pairs = self.local_names()
            return ast.Local(t, names=[n.text for n, _ in pairs],
                             sizes={n.text: size for n, size in pairs if size is not None})
        if w == "FROM":
            return self.from_loop()
        if w == "if":
            return self.if_statement()
        if w == "CONSERVE" and self._kinetic:
            self.next()
            lhs = self.expression()
            self.expect("=")
            return ast.Conserve(t, lhs=lhs, total=self.expression())
        if w == "COMPARTMENT" and self._kinetic:
            return self.compartment()
        if w == "SOLVE":
            self.next()
            n = self.name()
            method = None
            if self.at("METHOD"):
                self.next()
                method = self.name()
            steady = None
            if self.at("STEADYSTATE"):
                self.next()
                steady = self.name()
            return ast.Solve(t, name=n.text, method=method, steady=steady)
        if w == "TABLE":  # accepted; the values are computed directly
            self.next()
            if not self.at("DEPEND") and not self.at("FROM"):
                self.name_list()
            if self.at("DEPEND"):
                self.next()
                self.name_list()
            self.expect("FROM")
            self.expression()
            self.expect("TO")
            self.expression()
            self.expect("WITH")
            self.expression()
            return None
        if w in ("PROTECT", "MUTEXLOCK", "MUTEXUNLOCK"):
            return self.guarded(t)
        if w in _UNSUPPORTED_STMTS:
            raise self.unsupported(_UNSUPPORTED_STMTS[w], t)
        if w == "INITIAL" and self.at("{", 1) and self._net_top == self._depth:
            # NET_RECEIVE's INITIAL: each connection's values set up (NEURON
            # runs it per NetCon at finitialize).
            if self.mod.net_initial is not None:
                raise self.error("NET_RECEIVE has two INITIAL blocks", t)
            self.next()
            self.mod.net_initial = self.block()
            self.mod.net_initial_tok = t
            return None
        if w in ("INITIAL", "BREAKPOINT", "DERIVATIVE", "PROCEDURE", "FUNCTION", "NET_RECEIVE",
                 "NEURON", "STATE", "ASSIGNED", "PARAMETER") and self.at("{", 1):
            raise self.unsupported("%s block inside a block (but NET_RECEIVE's INITIAL, at its "
                                   "top level)" % w, t)
        if w in _UNSUPPORTED_BLOCKS:
            raise self.unsupported(_UNSUPPORTED_BLOCKS[w], t)
        self.next()
        # An element of an array: ca[i] = ..., ca[i]' = ... or ca'[i] = ...
        index = self.index()
        if self.at("'"):
            self.next()
            if index is None:
                index = self.index()
            self.expect("=")
            return ast.DerivAssign(t, name=w, expr=self.expression(), index=index)
        if self.at("="):
            self.next()
            if self._mutex:
                self._guarded.append((w, t, "MUTEXLOCK"))
            return ast.Assign(t, name=w, expr=self.expression(), index=index)
        if self.at("(") and index is None:
            return ast.CallStmt(t, name=w, args=self.call_args())
        raise self.error("expected '=' or '(' after %s, found %s" % (w, _describe(self.peek())))

    def compartment(self):
        """`COMPARTMENT volume { A B ... }`, or `COMPARTMENT i, volume { A B ... }`
        over arrays: each element k with the volume at i = k (arrays.py)."""
        t = self.next()
        var = None
        if self.peek().kind == "NAME" and self.at(",", 1):
            var = self.next()
            self.next()
        volume = self.expression()
        self.expect("{")
        names = []
        while not self.at("}"):
            n = self.name()
            if self.at("["):
                raise self.error("a COMPARTMENT names whole states, not elements", n)
            names.append(n)
        self.next()
        if not names:
            raise self.error("COMPARTMENT names no state", t)
        return ast.Compartment(t, volume=volume, names=names, var=var)

    def from_loop(self):
        """`FROM i = lo TO hi [BY step] { ... }`: unrolled (arrays.py), so its
        bounds must be constants."""
        t = self.next()
        var = self.name()
        self.expect("=")
        lo = self.expression()
        self.expect("TO")
        hi = self.expression()
        by = None
        if self.at("BY"):
            self.next()
            by = self.expression()
        return ast.From(t, var=var, lo=lo, hi=hi, by=by, body=self.block())

    def reaction(self):
        """`~ A + 2 B <-> C (kf, kb)` or `~ A << (flux)`."""
        t = self.next()
        lhs = self.reactants()
        if self.at("<") and self.at("<", 1):
            self.next()
            self.next()
            self.expect("(")
            flux = self.expression()
            self.expect(")")
            return ast.Reaction(t, lhs=lhs, rhs=[], kind="<<", kf=flux, kb=None)
        if not (self.at("<") and self.at("-", 1) and self.at(">", 2)):
            # NEURON 9's nocmodl has no one-way '->'.
            raise self.error("expected '<->' or '<<' in a reaction, found %s" %
                             _describe(self.peek()))
        for _ in range(3):
            self.next()
        rhs = self.reactants()
        self.expect("(")
        kf = self.expression()
        self.expect(",")
        kb = self.expression()
        self.expect(")")
        return ast.Reaction(t, lhs=lhs, rhs=rhs, kind="<->", kf=kf, kb=kb)

    def reactants(self):
        """[(stoichiometric coefficient, name token)] of one side of a reaction."""
        out = []
        while True:
            coef = 1
            if self.peek().kind == "NUMBER":
                nt = self.next()
                if not nt.text.isdigit() or int(nt.text) < 1:
                    raise self.error("a reaction's coefficient must be a whole number", nt)
                coef = int(nt.text)
            n = self.name()
            out.append((coef, n, self.index()))
            if not self.at("+"):
                return out
            self.next()

    def if_statement(self):
        t = self.next()
        self.expect("(")
        cond = self.expression()
        self.expect(")")
        then = self.block()
        orelse = []
        if self.at("else"):
            self.next()
            orelse = [self.if_statement()] if self.at("if") else self.block()
        return ast.If(t, cond=cond, then=then, orelse=orelse)

    def call_args(self):
        self.expect("(")
        args = []
        while not self.at(")"):
            if self.peek().kind == "STRING":
                t = self.next()
                args.append(ast.Str(t, text=t.text))
            else:
                args.append(self.expression())
            if not self.at(")"):
                self.expect(",")
        self.expect(")")
        return args

    # Expressions: || < && < comparisons < + - < * / < unary < ^ (right-associative)
    def expression(self):
        return self.binary_level(0)

    _LEVELS = (("||",), ("&&",), ("==", "!=", "<", "<=", ">", ">="), ("+", "-"), ("*", "/"))

    def binary_level(self, k):
        if k == len(self._LEVELS):
            return self.unary()
        left = self.binary_level(k + 1)
        while self.peek().kind == "OP" and self.peek().text in self._LEVELS[k]:
            op = self.next()
            right = self.binary_level(k + 1)
            left = ast.Binary(op, op=op.text, left=left, right=right)
        return left

    def unary(self):
        t = self.peek()
        if t.kind == "OP" and t.text in ("-", "!", "+"):
            self.next()
            arg = self.unary()
            return arg if t.text == "+" else ast.Unary(t, op=t.text, arg=arg)
        return self.power()

    def power(self):
        base = self.primary()
        if self.at("^"):
            op = self.next()
            return ast.Binary(op, op="^", left=base, right=self.unary())
        return base

    def primary(self):
        t = self.peek()
        if t.kind == "NUMBER":
            self.next()
            # A number may carry its units, `10 (degC)`, `40 (mV)` (NMODL
            # documents them there for modlunit; the value is unchanged).
            # Nothing else can follow a number with '(' in an expression.
            self.units()
            return ast.Num(t, text=t.text)
        if t.kind == "NAME":
            self.next()
            if self.at("("):
                return ast.CallExpr(t, name=t.text, args=self.call_args())
            if self.at("["):
                return ast.Index(t, name=t.text, index=self.index())
            return ast.Name(t, name=t.text)
        if self.at("("):
            self.next()
            e = self.expression()
            self.expect(")")
            return e
        raise self.error("expected an expression, found %s" % _describe(t), t)


def _describe(t):
    return "end of file" if t.kind == "EOF" else "'%s'" % t.text


def parse(src, file="<input>"):
    return Parser(src, file).parse()


def parse_file(path):
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), path)
