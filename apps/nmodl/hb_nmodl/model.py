"""model.py: a parsed .mod file checked against the subset and executed symbolically: each interface function as sympy expressions of its inputs."""
from fractions import Fraction

import sympy

from . import ast
from .errors import NmodlError, Unsupported
from .implicit import check_coupled, newton_step
from .singular import remove_singularities
from .symfuncs import Exprelr, Expm1, Frozen

V = sympy.Symbol("v", real=True)
CELSIUS = sympy.Symbol("celsius", real=True)
DT = sympy.Symbol("dt", positive=True)
WEIGHT = sympy.Symbol("weight", real=True)
# The simulation time (ms) the block runs at, as NEURON's fixed step gives it
# (docs/mechanisms.md, The simulation time t): read-only, an input like dt.
TIME = sympy.Symbol("t", real=True)
# NET_RECEIVE's flag: 0 for an event from a connection, what net_send gave
# for a self-event (an input of a mechanism that sends any).
FLAG = sympy.Symbol("flag", real=True)
# The most net_send statements one NET_RECEIVE may hold (after its
# procedures and loops are expanded): each is a slot of the engine's send
# buffer.
MAX_SENDS = 16
_SPECIAL = {"v": V, "celsius": CELSIUS, "dt": DT, "t": TIME}


def conn_symbol(name):
    """A connection's value (NET_RECEIVE's argument after the weight) as its
    function receives it."""
    return sympy.Symbol("c_" + name, real=True)


def updated_symbol(name):
    """STATE name after its own cnexp update: what a cnexp DERIVATIVE block's statements
    after `name' = ...` read (nocmodl updates each state in place, in the block's order);
    numerics.py puts the update in its place."""
    return sympy.Symbol("cnexp_new_" + name, real=True)
# The compartment's geometry. `diam` (um, NEURON's seg.diam), declared as
# NEURON's files declare it (`ASSIGNED { diam (um) }`, or in PARAMETER),
# becomes a read-only parameter named diam that the engine fills with the
# compartment's mean diameter (hb_morph_cell_view.diam) wherever the mechanism
# is inserted or placed; no file can have a parameter of its own by that name.
# `area` (um2, NEURON's node area) likewise, where a kept zero-area node
# (docs/morphology.md) reads 100 um2, as NEURON's zero-area nodes do.
_GEOMETRY = ("area", "diam")
# Units and default of each: the default (a new NEURON section's diam, and
# its one segment's area, pi 500 100 um2) holds only where no compartment
# does (the generated functions called alone).
_GEOMETRY_PARAMS = {"diam": ("um", "500"), "area": ("um2", "157079.63267948966")}
# dt where the generated function does not receive it (init(), current()):
# read as this placeholder, refused only if it reaches what the function
# computes (a TABLE procedure called from INITIAL that also sets an unused
# `tinc = -dt*tadj`, as published channels do, is fine).
_NO_DT = sympy.Symbol("hb_dt_not_received", real=True)


def _has_no_dt(obj):
    if isinstance(obj, sympy.Basic):
        return obj.has(_NO_DT)
    if isinstance(obj, dict):
        return any(_has_no_dt(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_has_no_dt(v) for v in obj)
    return False
_BUILTIN_CONSTANTS = {"PI": sympy.pi, "FARADAY": sympy.Rational("96485.33212331001"),
                      "R": sympy.Rational("8.31446261815324")}
METHODS = ("cnexp", "derivimplicit", "euler")


def _num(text):
    f = Fraction(text)
    return sympy.Rational(f.numerator, f.denominator)


def _is_bool(e):
    # Not isinstance(e, Boolean): sympy's Symbol is a Boolean too.
    from sympy.logic.boolalg import BooleanAtom, BooleanFunction
    return isinstance(e, (sympy.core.relational.Relational, BooleanFunction, BooleanAtom))


def _bool(e):
    if _is_bool(e):
        return e
    if isinstance(e, sympy.Piecewise):
        # A number chosen by conditions (a flag an if set) as a condition: the
        # branches whose value is not 0, each under its condition and none
        # before it (sympy cannot take Ne(Piecewise, 0) as a Piecewise's
        # condition).
        terms, before = [], sympy.false
        for val, cond in e.args:
            terms.append(sympy.And(cond, sympy.Not(before), _bool(val)))
            before = sympy.Or(before, cond)
        return sympy.Or(*terms)
    return sympy.Ne(e, 0)


def _arith(e):
    if _is_bool(e):
        return sympy.Piecewise((sympy.Integer(1), e), (sympy.Integer(0), True))
    return e


def _builtin(name, args):
    """The value of a NMODL built-in function, or None when name is not one."""
    one = {"exp": sympy.exp, "log": sympy.log, "sin": sympy.sin, "cos": sympy.cos,
           "tan": sympy.tan, "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh,
           "atan": sympy.atan, "asin": sympy.asin, "acos": sympy.acos, "fabs": sympy.Abs,
           "sqrt": sympy.sqrt, "floor": sympy.floor, "ceil": sympy.ceiling,
           "exprelr": Exprelr, "expm1": Expm1, "erf": sympy.erf}
    if name in one and len(args) == 1:
        return one[name](args[0])
    if name == "log10" and len(args) == 1:
        return sympy.log(args[0]) / sympy.log(10)
    if name == "pow" and len(args) == 2:
        return sympy.Pow(args[0], args[1])
    if name == "fmin" and len(args) == 2:
        return sympy.Min(*args)
    if name == "fmax" and len(args) == 2:
        return sympy.Max(*args)
    if name == "atan2" and len(args) == 2:
        return sympy.atan2(*args)
    return None


class IonUse:
    def __init__(self, name, inputs, currents, concentrations, valence):
        self.name = name
        self.inputs = inputs                  # READ names that are inputs (not STATEs)
        self.currents = currents              # WRITE currents (outputs of current())
        self.concentrations = concentrations  # WRITE concentrations (STATEs)
        self.valence = valence


class _Frame:
    """Values during symbolic execution: locals, module variables, derivatives."""

    def __init__(self, local, glob, derivs, conserve=None, compartments=None, sends=None):
        self.local = local
        self.glob = glob
        self.derivs = derivs
        self.conserve = [] if conserve is None else conserve  # KINETIC: (lhs, total)
        # KINETIC's COMPARTMENT: state name -> (volume, the state's symbol)
        self.compartments = {} if compartments is None else compartments
        # NET_RECEIVE's net_send statements so far: (condition it runs
        # under, delivery time, flag), each evaluated where it stands.
        self.sends = [] if sends is None else sends

    def copy(self):
        return _Frame(dict(self.local), dict(self.glob), dict(self.derivs), self.conserve,
                      self.compartments, list(self.sends))


# Newton iterations at most in a nonlinear STEADYSTATE's step of 1e9 ms (it
# stops once the states move by 1e-6 or less; NEURON's sparse gives up past
# 21).
SS_NEWTON = 20
SS_TRIES = 7  # its one-step tries before the iterations (NIT)


def _number(e):
    """e as a finite complex number, or None (infinite, NaN, or not a number)."""
    try:
        z = complex(sympy.N(e))
    except (TypeError, ValueError):
        return None
    return z if z == z and abs(z) != float("inf") else None


class Mechanism:
    """The checked module: names, slots and, once executed, each function's outputs."""

    def __init__(self, mod):
        self.mod = mod
        self.file = mod.file
        if mod.suffix:
            self.name, self.kind = mod.suffix[0], "density"
        elif mod.point_process:
            self.name, self.kind = mod.point_process[0], "point"
        else:
            raise NmodlError("no SUFFIX or POINT_PROCESS in the NEURON block", self.file, 1, 1)
        self.singularities = []
        self.warnings = []
        self.uses_t = False  # some block reads t: its functions take it (codegen.signatures)
        self._t_shift = False
        # NET_RECEIVE, INITIAL or a function sends self-events (net_send):
        # net_receive() then takes the flag and gives the events sent, and
        # init() those INITIAL sends.
        self.has_send = self._scan_sends()
        self.sends = []
        self.init_sends = []
        self._declare()
        self._solve_stmt()
        # Pass 1 finds the ASSIGNED variables some function reads before it
        # writes them: they must be kept between calls (slots after the states).
        self.store = []
        self._store_reads = set()
        self._reads_in = {}  # name -> the functions reading it before writing it
        self._writes_in = {}  # name -> the functions writing it
        self._bp_old = False  # BREAKPOINT's cache read as its old values (_bp_cache_values)
        self.bp_cache = []
        self._execute_all(record=True)
        # A value that only BREAKPOINT writes and reads before writing: a
        # cache of celsius (`if (s_celsius != celsius) { s_celsius = celsius
        # Q = ... }`, in module LOCALs shared by every instance) is the same at
        # every call as at the first, so it needs no slot; _bp_cache_values
        # proves that and gives the value every call reads, or refuses it as
        # any value kept between steps that BREAKPOINT assigns.
        self.bp_cache = [n for n in self.assigned_names if n in self._store_reads and
                         self._reads_in.get(n, set()) <= {"BREAKPOINT"} and
                         self._writes_in.get(n, set()) <= {"BREAKPOINT"}]
        self.store = [n for n in self.assigned_names
                      if n in self._store_reads and n not in self.bp_cache] + \
            [p for p in self.param_names if p in self._written_params] + self.conc_kept
        self.bp_fixed = self._bp_cache_values() if self.bp_cache else {}
        self.singularities = []
        self._execute_all(record=False)
        # Self-events go to NET_RECEIVE: without it (a net_send in a procedure
        # nothing calls) the mechanism sends none.
        self.has_send = self.has_send and self.net_frame is not None
        self.keep_after = self._keeps_after()  # on the final pass's frames and slots
        self.state_method = self.method  # numerics.build says when cnexp falls back

    # Declarations
    def _err(self, msg, tok):
        return NmodlError(msg, self.file, tok.line if tok else 1, tok.col if tok else 1)

    def _unsup(self, what, tok):
        return Unsupported(what, self.file, tok.line if tok else 1, tok.col if tok else 1)

    def _declare(self):
        mod = self.mod
        self.states = [s.name for s in mod.states]
        self._state_defaults = {s.name: _num(s.default) for s in mod.states if s.default is not None}
        self.constants = {c.name: _num(c.default) for c in mod.constants}
        self.ions = []
        self.ion_inputs = []
        # Concentrations the file WRITEs without making them STATEs (a pool
        # integrated in a STATE ca, then `cai = ca`): kept in slots after the
        # states, written to the ion after INITIAL and each SOLVE, as the
        # STATE ones are; reading one before assigning it gives the ion's value
        # where the file READs it too.
        self.conc_kept = []
        ion_currents, state_set = [], set(self.states)
        # Currents a file both READs and WRITEs (NEURON's cabpump.mod takes
        # its own pump's share out of the total in its KINETIC block): the
        # SOLVE reads the ion's total, as NEURON's nrn_state loads it after
        # every mechanism's nrn_cur; BREAKPOINT only writes the mechanism's
        # own (what NEURON's nrn_cur would read first is the sum so far,
        # which hangs on the mechanisms' order: refused, as is a read in
        # INITIAL and an assignment in the SOLVE).
        self.rw_currents = []
        for ion in mod.ions:
            inputs, currents, concs = [], [], []
            self.rw_currents += [r for r in ion.read if r == "i" + ion.name and r in ion.write]
            for r in ion.read:
                if r not in state_set:
                    inputs.append(r)
            for w in ion.write:
                if w == "i" + ion.name:
                    currents.append(w)
                elif w in (ion.name + "i", ion.name + "o"):
                    if w not in state_set:
                        # NEURON loads a written concentration too: READ or not,
                        # the mechanism starts each function from the ion's value.
                        self.conc_kept.append(w)
                        if w not in inputs:
                            inputs.append(w)
                    concs.append(w)
                else:
                    raise self._unsup("WRITE %s (ions write currents or concentrations)" % w,
                                      ion.tok)
            self.ions.append(IonUse(ion.name, inputs, currents, concs, ion.valence))
            self.ion_inputs.extend(i for i in inputs if i not in self.ion_inputs)
            ion_currents.extend(currents)
        self.ion_currents = ion_currents
        # ELECTRODE_CURRENT: current injected into the cell (positive inward,
        # NEURON's convention for electrodes); the membrane sums it negated.
        self.electrode = list(mod.electrode)
        self.currents = ion_currents + list(mod.nonspecific) + self.electrode
        special = set(_SPECIAL) | set(self.ion_inputs) | set(self.currents) | set(_GEOMETRY)
        declared = {v.name: v for v in list(mod.assigned) + list(mod.parameters)}
        self.geometry = [g for g in _GEOMETRY_PARAMS if g in declared]
        self.params = [p for p in mod.parameters if p.name not in special] + [
            ast.Var(declared[g].tok, name=g, default=_GEOMETRY_PARAMS[g][1],
                    units=_GEOMETRY_PARAMS[g][0], lo=None, hi=None) for g in self.geometry]
        self.param_names = [p.name for p in self.params]
        self.assigned_names = [a.name for a in mod.assigned
                               if a.name not in special and a.name not in self.param_names
                               and a.name not in state_set]
        for p in self.params:
            if p.default is None:
                p.default = "0"
        self._written_params = self._scan_param_writes()

    def _scan_param_writes(self):
        """PARAMETERs some block assigns (NEURON allows it: exp2syn clamps tau1): kept in slots."""
        params, written = set(self.param_names) - set(_GEOMETRY), set()

        def scan(body, shadow):
            for s in body:
                if isinstance(s, ast.Local):
                    shadow = shadow | set(s.names)
                elif isinstance(s, ast.Assign) and s.name in params and s.name not in shadow:
                    written.add(s.name)
                elif isinstance(s, ast.If):
                    scan(s.then, shadow)
                    scan(s.orelse, shadow)

        for body in (self.mod.initial, self.mod.breakpoint):
            if body:
                scan(body, set())
        for f in list(self.mod.functions.values()) + list(self.mod.derivatives.values()):
            scan(f.body, set(f.args))
        if self.mod.net_receive:
            scan(self.mod.net_receive.body, set(self.mod.net_receive.args))
        return written

    def _scan_sends(self):
        """Whether NET_RECEIVE, INITIAL or any FUNCTION or PROCEDURE has a
        net_send statement (those outside NET_RECEIVE and INITIAL are
        refused when they run)."""
        def scan(body):
            for s in body:
                if isinstance(s, ast.CallStmt) and s.name == "net_send":
                    return True
                if isinstance(s, ast.If) and (scan(s.then) or scan(s.orelse)):
                    return True
            return False

        bodies = [f.body for f in self.mod.functions.values()] + [self.mod.initial or []]
        if self.mod.net_receive:
            bodies.append(self.mod.net_receive.body)
        return any(scan(b) for b in bodies)

    def _solve_stmt(self):
        """The BREAKPOINT's SOLVE (at most one): its target and method."""
        self.solve = None
        self.method = None
        for s in self.mod.breakpoint or []:
            if isinstance(s, ast.Solve):
                if self.solve is not None:
                    raise self._unsup("second SOLVE in BREAKPOINT", s.tok)
                self.solve = s
        if self.solve is None:
            return
        s = self.solve
        if s.steady is not None:
            raise self._unsup("SOLVE ... STEADYSTATE in BREAKPOINT (INITIAL's is translated)",
                              s.tok)
        if s.name in self.mod.derivatives and self.mod.derivatives[s.name].kind == "KINETIC":
            if s.method is None or s.method.text != "sparse":
                raise self._unsup("SOLVE of a KINETIC block with METHOD %s (sparse is translated)"
                                  % (s.method.text if s.method else "none"),
                                  s.method or s.tok)
            self.method = "sparse"
        elif s.name in self.mod.derivatives:
            if s.method is None:
                raise self._unsup("SOLVE of a DERIVATIVE block without METHOD", s.tok)
            m = s.method.text
            if m not in METHODS:
                raise self._unsup("METHOD %s (cnexp, derivimplicit and euler are translated)" % m,
                                  s.method)
            self.method = m
        elif s.name in self.mod.functions and self.mod.functions[s.name].kind == "PROCEDURE":
            # after_cvode: with the fixed step, NEURON calls the PROCEDURE in
            # nrn_state, after v has moved, as a SOLVE without METHOD (its
            # CVODE meaning has no counterpart here).
            if s.method is not None and s.method.text != "after_cvode":
                raise self._unsup("METHOD %s for a PROCEDURE (after_cvode or none is translated)"
                                  % s.method.text, s.method)
            self.method = "procedure"
        else:
            raise self._err("SOLVE %s: no DERIVATIVE or PROCEDURE of that name" % s.name, s.tok)

    # Symbolic execution
    def slot_names(self):
        return self.states + self.store

    def shown(self, name):
        """name as the library shows it: an array's element ca_0 as ca[0]
        (arrays.py), the rest as it is."""
        return self.mod.display.get(name, name)

    def _execute_all(self, record):
        self._record = record
        self._no_dt = {}  # fn -> the refusal of its first read of dt
        self.init_stages = []  # INITIAL's STEADYSTATE solves: stages before its writes
        init_frame = self._run("INITIAL", self.mod.initial or [], {}, init=True, fn="init")
        self.init_sends = init_frame.sends
        self.init_out = self._outputs(init_frame, init=True)
        self._check_no_dt("init", (self.init_out, self.init_stages))
        bp = self._breakpoint_body()
        cur = self._run("BREAKPOINT", bp, {}, fn="current")
        self._check_store_writes(cur, "BREAKPOINT")
        self.current_out = {}
        for c in self.currents:
            self.current_out[c] = _arith(cur.glob.get(c, sympy.Integer(0)))
        self._check_no_dt("current", (self.current_out, self._outputs(cur)))
        self.state_frame = None
        if self.solve is not None:
            if self.method == "procedure":
                body = self.mod.functions[self.solve.name].body
            else:
                body = self.mod.derivatives[self.solve.name].body
            # NEURON runs BREAKPOINT (nrn_cur) before SOLVE (nrn_state) each
            # step, so the SOLVE may read what BREAKPOINT assigned (a channel
            # integrating its own ica): state() evaluates those first, at its
            # v. What the SOLVE does not read costs nothing (never emitted).
            # NEURON's nrn_cur runs BREAKPOINT at t + dt/2 and nrn_state the
            # SOLVE at t + dt: state() receives the latter, so BREAKPOINT's
            # assignments evaluated here read t as t - dt/2.
            self.state_frame = self._run(self.solve.name, list(body), {}, fn="state",
                                         deriv=self.method != "procedure", pre=bp)
        self.net_frame = None
        self.net_init_frame = None
        self.conn_args = []
        nr = self.mod.net_receive
        if nr is not None:
            if not nr.args:
                raise self._err("NET_RECEIVE without arguments (the first is the weight)", nr.tok)
            if len(set(nr.args)) != len(nr.args):
                raise self._err("NET_RECEIVE names an argument twice", nr.tok)
            # The arguments after the weight are the connection's own values
            # (NEURON's NetCon weight vector): kept per connection between its
            # events, read and written by NET_RECEIVE, set up by its INITIAL.
            self.conn_args = list(nr.args[1:])
            args = dict({nr.args[0]: WEIGHT}, **{a: conn_symbol(a) for a in self.conn_args})
            if self.mod.net_initial is not None:
                self.net_init_frame = self._run("NET_RECEIVE's INITIAL", self.mod.net_initial,
                                                dict(args), fn="net_init")
            self.net_frame = self._run("NET_RECEIVE", nr.body, args, fn="net_receive")
            self.sends = self.net_frame.sends
            for what, sends in (("NET_RECEIVE", self.sends), ("INITIAL", self.init_sends)):
                if len(sends) > MAX_SENDS:
                    raise self._unsup("more than %d net_send statements in %s (with its "
                                      "procedures expanded): %d" % (MAX_SENDS, what,
                                                                   len(sends)), nr.tok)
        elif self.mod.net_initial is not None:
            raise self._err("INITIAL inside NET_RECEIVE without NET_RECEIVE",
                            self.mod.net_initial_tok)
        elif self.init_sends:
            raise self._err("net_send in INITIAL without NET_RECEIVE (nothing would receive "
                            "the self-event)", self._send_tok)

    def _check_no_dt(self, fn, outputs):
        if fn in self._no_dt and _has_no_dt(outputs):
            raise self._no_dt[fn]

    def _breakpoint_body(self):
        """BREAKPOINT's statements but its SOLVE (current() runs them)."""
        return [s for s in (self.mod.breakpoint or []) if not isinstance(s, ast.Solve)]

    def _kept_write(self, block, n):
        """The refusal of block assigning n, a value kept between steps."""
        return self._unsup("%s assigns %s, which is kept between steps (current() does not "
                           "write states)" % (block, n), self._assign_tok.get(n))

    def _where(self):
        """The function a read or write belongs to: BREAKPOINT's statements
        also run first in state() (pre), and count as BREAKPOINT's."""
        return "BREAKPOINT" if self._fn == "current" or self._t_shift else self._fn

    def _block_shown(self):
        """The block a statement belongs to, for messages: BREAKPOINT's
        statements that state() runs first count as BREAKPOINT's."""
        return "BREAKPOINT" if self._where() == "BREAKPOINT" else self._block

    def _bp_cache_values(self):
        """BREAKPOINT's cache as every call reads it: BREAKPOINT as a map F of
        the old values (and celsius) to the new, its first call a miss (an
        old value equals no key: `seen != celsius` holds), F(F(miss)) =
        F(miss) checked at temperatures from -20 to 50 degC; else the value
        is kept between steps and BREAKPOINT assigns it, refused. NEURON's
        first call starts from 0 instead, which differs only where celsius
        is exactly that start value."""
        keep = (self.singularities, self.warnings)
        self.singularities, self.warnings = [], []
        self._bp_old = True
        try:
            frame = self._run("BREAKPOINT", self._breakpoint_body(), {}, fn="current")
        finally:
            self._bp_old = False
            self.singularities, self.warnings = keep
        old = {n: sympy.Symbol("o_" + n, real=True) for n in self.bp_cache}
        olds = set(old.values())
        F = {n: sympy.sympify(frame.glob.get(n, old[n])) for n in self.bp_cache}
        miss = {}
        for n in self.bp_cache:
            if F[n].free_symbols - {CELSIUS} - olds:
                raise self._kept_write("BREAKPOINT", n)
            x = F[n].replace(lambda e: isinstance(e, (sympy.Eq, sympy.Ne)) and
                             bool(e.free_symbols & olds),
                             lambda e: sympy.true if isinstance(e, sympy.Ne) else sympy.false)
            if x.free_symbols & olds:
                raise self._kept_write("BREAKPOINT", n)
            miss[n] = x
        for c in (-20, 0, 6.3, 16, 22, 34, 37, 50):
            at = {old[n]: miss[n].subs(CELSIUS, c) for n in self.bp_cache}
            for n in self.bp_cache:
                try:
                    again = F[n].subs({CELSIUS: c, **at})
                except TypeError:  # a comparison with a value not finite here
                    again = sympy.nan
                a, b = _number(again), _number(at[old[n]])
                if a is None and b is None:  # not finite at this temperature either way
                    continue
                same = a is not None and b is not None and (
                    a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b)))
                if not same:
                    raise self._kept_write("BREAKPOINT", n)
        return miss

    def _check_store_writes(self, frame, block):
        if self._record:
            return
        for n in self.store:
            if n in frame.glob and frame.glob[n] != self._initial(n, False):
                raise self._kept_write(block, n)

    def _keeps_after(self):
        """Whether the SOLVE assigns the currents again, each as BREAKPOINT's formula at the
        new v (a clamp's PROCEDURE under METHOD after_cvode: i = (vc - v)/rs): NEURON records
        those values, after the step, so the engine keeps the currents again after the state
        step, at the new v and the step's middle time (hb_cat_keep). Every current the SOLVE
        assigns must be so (and read nothing it wrote); otherwise probes keep BREAKPOINT's."""
        f = self.state_frame
        if f is None:
            return False
        assigned = self._assigned_by(self.solve.name)
        mine = [c for c in self.currents if c in assigned]
        if not mine:
            return False
        written = {sympy.Symbol("s_" + n, real=True) for n, e in self._outputs(f).items()
                   if e != self._initial(n, False)}
        for c in mine:
            after = _arith(f.glob[c])
            if after.free_symbols & written:
                return False
            if sympy.simplify(after - self.current_out[c].subs(TIME, TIME - DT / 2)) != 0:
                return False
        return True

    def _assigned_by(self, name):
        """The module variables that block `name` (a DERIVATIVE, KINETIC, PROCEDURE or
        FUNCTION) assigns, itself or through the PROCEDUREs and FUNCTIONs it calls."""
        out, seen = set(), set()

        def expr(e):
            if isinstance(e, ast.CallExpr):
                block(e.name)
            for k in ("args", "arg", "left", "right", "index"):
                sub = getattr(e, k, None)
                for x in (sub if isinstance(sub, list) else [sub]):
                    if isinstance(x, ast.Node):
                        expr(x)

        def body(stmts, shadow):
            for st in stmts:
                if isinstance(st, ast.Local):
                    shadow = shadow | set(st.names)
                elif isinstance(st, (ast.Assign, ast.DerivAssign)):
                    if st.name not in shadow:
                        out.add(st.name)
                    expr(st.expr)
                elif isinstance(st, ast.If):
                    if st.cond is not None:
                        expr(st.cond)
                    body(st.then, shadow)
                    body(st.orelse, shadow)
                elif isinstance(st, ast.CallStmt):
                    block(st.name)
                    for a in st.args:
                        expr(a)

        def block(n):
            if n in seen:
                return
            seen.add(n)
            f = self.mod.functions.get(n) or self.mod.derivatives.get(n)
            if f is not None:
                body(f.body, set(getattr(f, "args", None) or []))

        block(name)
        return out

    def _outputs(self, frame, init=False):
        out = {}
        for n in self.slot_names():
            out[n] = _arith(frame.glob[n]) if n in frame.glob else self._initial(n, init)
        return out

    def _initial(self, name, init):
        """The value of a module variable a function reads before writing it."""
        if name == "v":  # assigned in one branch of an if: the input elsewhere
            return V
        if name in self.states:
            if not init:
                return sympy.Symbol("s_" + name, real=True)
            # At the start of INITIAL: NEURON's <state>0 parameter when there is
            # one, else the STATE's own default, else 0.
            if name + "0" in self.param_names:
                return sympy.Symbol("p_" + name + "0", real=True)
            return self._state_defaults.get(name, sympy.Integer(0))
        if name in self._written_params:
            if init or self._record:
                return sympy.Symbol("p_" + name, real=True)
            return sympy.Symbol("s_" + name, real=True)
        if name in self.conc_kept:
            # NEURON copies the ion's value into the mechanism's before each
            # function and back after: unassigned, it is the ion's.
            return sympy.Symbol(name, real=True)
        if name in self.bp_cache:
            if self._bp_old:
                return sympy.Symbol("o_" + name, real=True)
            if not self._record:
                return self.bp_fixed[name]
        if name in self.assigned_names or name in self.currents:
            if self._record:
                self._reads_in.setdefault(name, set()).add(self._where())
                if not init:
                    self._store_reads.add(name)
                return sympy.Integer(0)
            if name in self.store and not init:
                return sympy.Symbol("s_" + name, real=True)
            return sympy.Integer(0)
        raise KeyError(name)

    def _run(self, block, body, args, fn, init=False, deriv=False, pre=()):
        self._block, self._init, self._deriv, self._depth = block, init, deriv, 0
        self._fn, self._assign_tok, self._inner = fn, {}, block
        frame = _Frame(dict(args), {}, {})
        self._t_shift = True
        try:
            self._exec(pre, frame)
        finally:
            self._t_shift = False
        self._exec(body, frame)
        self._compartments(frame)
        return frame

    def _module_var(self, name):
        return (name in self.states or name in self.assigned_names or name in self.currents
                or name in self._written_params or name in self.conc_kept)

    def _read(self, name, frame, tok):
        if name in frame.local:
            return frame.local[name]
        if name in self.rw_currents:
            if self._fn == "state" and not self._t_shift:
                return sympy.Symbol(name, real=True)  # the ion's total
            if name not in frame.glob:
                raise self._unsup("use of %s in %s before assigning it (the file READs and "
                                  "WRITEs it: the SOLVE reads the ion's total; elsewhere NEURON "
                                  "gives the current summed so far, which depends on the order "
                                  "of the mechanisms)" % (name, self._block_shown()), tok)
        if name in frame.glob:
            return frame.glob[name]
        if name in self.conc_kept and self._fn == "net_receive":
            raise self._unsup("use of %s in NET_RECEIVE (the generated net_receive() does not "
                              "receive ions)" % name, tok)
        if self._fn == "net_init" and name == "t":
            return sympy.Integer(0)  # NEURON runs it at finitialize, t = 0
        if self._fn == "net_init" and (self._module_var(name) or name in _SPECIAL or
                                       name in self.ion_inputs or name in _GEOMETRY or
                                       name == "flag"):
            raise self._unsup("use of %s in NET_RECEIVE's INITIAL (it sets up a connection's "
                              "values from the weight, PARAMETERs, constants and t)" % name, tok)
        if self._module_var(name):
            return self._initial(name, self._init)
        if name in self.param_names:
            return sympy.Symbol("p_" + name, real=True)
        if name in self.constants:
            return self.constants[name]
        if name == "t":
            # Every function receives the time it runs at (NET_RECEIVE: the
            # event's delivery time).
            self.uses_t = True
            return TIME - DT / 2 if self._t_shift else TIME
        if name in _SPECIAL or name in self.ion_inputs:
            # What each generated function receives (docs/mechanisms.md).
            if (name == "dt" and self._fn != "state") or self._fn == "net_receive":
                e = self._unsup("use of %s in %s (the generated %s() does not receive it)" %
                                (name, self._block, self._fn), tok)
                if name != "dt" or self._fn == "net_receive":
                    raise e
                self._no_dt.setdefault(self._fn, e)
                return _NO_DT
            return _SPECIAL[name] if name in _SPECIAL else sympy.Symbol(name, real=True)
        if name in _BUILTIN_CONSTANTS:
            return _BUILTIN_CONSTANTS[name]
        if name == "flag" and self._fn == "net_receive":
            # NET_RECEIVE's flag: 0 for an event from a connection, the only
            # kind a mechanism that never calls net_send receives.
            return FLAG if self.has_send else sympy.Integer(0)
        if name in _GEOMETRY:
            raise self._err("use of %s without declaring it (ASSIGNED { %s (%s) }, as NEURON "
                            "requires)" % (name, name, _GEOMETRY_PARAMS[name][0]), tok)
        raise self._err("unknown name %s" % name, tok)

    def _write(self, name, value, frame, tok):
        if name in self.rw_currents and name not in frame.local and self._where() != "BREAKPOINT":
            raise self._unsup("assignment to %s in %s (the file READs and WRITEs it: only "
                              "BREAKPOINT assigns it)" % (name, self._block_shown()), tok)
        if name in self.conc_kept and self._fn == "net_receive" and name not in frame.local:
            raise self._unsup("assignment to %s in NET_RECEIVE (the ion is written after "
                              "INITIAL and the SOLVE only)" % name, tok)
        if name in frame.local:
            frame.local[name] = value
        elif self._fn == "net_init":
            raise self._unsup("assignment to %s in NET_RECEIVE's INITIAL (it sets up the "
                              "connection's values, NET_RECEIVE's arguments, only)" % name, tok)
        elif self._module_var(name):
            frame.glob[name] = value
            self._assign_tok.setdefault(name, tok)
            if self._record:
                self._writes_in.setdefault(name, set()).add(self._where())
        elif name == "v":
            # NEURON computes with its own copy of v: an assignment (published
            # channels nudge v off a 0/0 point, `if (v == -38) { v = v + 1e-4 }`)
            # holds for the rest of this function's evaluation only.
            frame.glob[name] = value
        elif name == "t":
            raise self._unsup("assignment to t (the simulation time is read-only: the engine "
                              "advances it)", tok)
        elif name in _SPECIAL or name in self.ion_inputs or name in _GEOMETRY:
            raise self._unsup("assignment to %s" % name, tok)
        elif name in self.param_names or name in self.constants:
            raise self._err("assignment to constant %s" % name, tok)
        else:
            raise self._err("assignment to undeclared %s" % name, tok)

    def _guard(self, e, where):
        if isinstance(e, sympy.Basic) and e.has(sympy.Piecewise) and e.has(sympy.exp):
            # A quotient of Piecewise factors (v nudged under a condition) is
            # folded into one Piecewise of plain quotients, so that each branch
            # can be checked for 0/0.
            folded = sympy.piecewise_fold(e)
            if isinstance(folded, sympy.Piecewise):
                e = folded
        return remove_singularities(e, V, where, self.singularities)

    def _exec(self, body, frame):
        for s in body:
            try:
                self._exec_one(s, frame)
            except (TypeError, ValueError, ZeroDivisionError, OverflowError) as e:
                # sympy refusing what a statement computes (a comparison
                # with 1/0, an overflowing power): the statement's fault,
                # reported at it, never a crash of the translator.
                raise self._err("cannot evaluate this statement: %s" % e, s.tok)

    def _exec_one(self, s, frame):
        if isinstance(s, ast.Local):
            for n in s.names:
                frame.local[n] = sympy.Integer(0)
        elif isinstance(s, ast.Assign):
            val = self._guard(_arith(self._eval(s.expr, frame)), "%s: %s" % (self._inner, s.name))
            self._write(s.name, val, frame, s.tok)
        elif isinstance(s, ast.DerivAssign):
            if not self._deriv:
                raise self._err("%s' outside the SOLVEd DERIVATIVE block" % s.name, s.tok)
            if s.name not in self.states:
                raise self._err("%s' of %s, which is not a STATE" % (s.name, s.name), s.tok)
            frame.derivs[s.name] = self._guard(_arith(self._eval(s.expr, frame)),
                                               "%s: %s'" % (self._inner, s.name))
            if self.method == "cnexp":
                # nocmodl's cnexp updates the state in place: the statements
                # after this line (cai = ca, another state's equation) read
                # its new value (NEURON 9.0.2: q = x*x after x' = ... holds the
                # new x).
                frame.glob[s.name] = updated_symbol(s.name)
        elif isinstance(s, ast.If):
            if s.cond is None:
                self._exec(s.then, frame)
                return
            c = _bool(self._eval(s.cond, frame))
            a, b = frame.copy(), frame.copy()
            self._exec(s.then, a)
            self._exec(s.orelse, b)
            self._merge(frame, c, a, b)
        elif isinstance(s, ast.CallStmt) and s.name == "state_discontinuity":
            # The old form of an assignment in NET_RECEIVE (NEURON: the same
            # as `x = value` under the fixed step): state_discontinuity(x, value).
            if len(s.args) != 2 or not isinstance(s.args[0], ast.Name):
                raise self._err("state_discontinuity takes a variable and a value", s.tok)
            val = self._guard(_arith(self._eval(s.args[1], frame)), "%s: %s" % (
                self._inner, s.args[0].name))
            self._write(s.args[0].name, val, frame, s.args[0].tok)
        elif (isinstance(s, ast.CallStmt) and s.name == "printf" and
              s.name not in self.mod.functions):
            # NEURON prints; the library never does (its callers read state
            # through probes): the statement has no effect on the model.
            if not s.args or not isinstance(s.args[0], ast.Str):
                raise self._err("printf takes a format string first", s.tok)
        elif (isinstance(s, ast.CallStmt) and s.name == "at_time" and
              s.name not in self.mod.functions):
            # A discontinuity at a time, told to NEURON's variable-step
            # integrator; under the fixed step the statement does nothing (its
            # value, 1 in the step that reaches the time, is refused: it
            # would need dt where BREAKPOINT computes).
            if len(s.args) != 1:
                raise self._err("at_time takes one time", s.tok)
            self._eval(s.args[0], frame)
        elif (isinstance(s, ast.CallStmt) and s.name == "net_send" and
              s.name not in self.mod.functions):
            self._net_send(s, frame)
        elif isinstance(s, ast.CallStmt):
            self._call(s.name, [self._eval(x, frame) for x in s.args], frame, s.tok, stmt=True)
        elif isinstance(s, ast.Reaction):
            self._reaction(s, frame)
        elif isinstance(s, ast.Conserve):
            if not self._deriv:
                raise self._err("CONSERVE outside the SOLVEd KINETIC block", s.tok)
            frame.conserve.append((_arith(self._eval(s.lhs, frame)),
                                   _arith(self._eval(s.total, frame))))
        elif isinstance(s, ast.Compartment):
            self._compartment(s, frame)
        elif isinstance(s, ast.Solve):
            if s.steady is not None and self._init and self._inner == "INITIAL":
                self._steady_state(s, frame)
                return
            raise self._unsup("SOLVE outside BREAKPOINT", s.tok)
        else:
            raise self._err("unexpected statement", s.tok)

    def _net_send(self, s, frame):
        """net_send(delay, flag): a self-event to this instance at t + delay
        (ms) with that flag, carrying the weight and connection of the
        event being received (NEURON's self-event keeps the NetCon's weight
        vector)."""
        if self._fn not in ("net_receive", "init") or self._t_shift:
            raise self._unsup("net_send in %s (self-events start from NET_RECEIVE or "
                              "INITIAL)" % self._block_shown(), s.tok)
        if self.kind != "point":
            raise self._unsup("net_send in a density mechanism (SUFFIX %s): self-events go "
                              "to point processes" % self.name, s.tok)
        self._send_tok = s.tok
        if len(s.args) != 2:
            raise self._err("net_send takes a delay and a flag", s.tok)
        delay = _arith(self._eval(s.args[0], frame))
        flag = _arith(self._eval(s.args[1], frame))
        self.uses_t = True  # the delivery time is t + delay
        frame.sends.append((sympy.true, TIME + delay, flag))

    def _reaction(self, s, frame):
        """A KINETIC reaction's fluxes added to its states' derivatives (law of mass action)."""
        if not self._deriv:
            raise self._err("reaction outside the SOLVEd KINETIC block", s.tok)

        def side(terms):
            # A species that is not a STATE (a PARAMETER, an ion's outside
            # concentration) is a constant of the scheme with no equation of
            # its own, as nocmodl reads it (kt GenVes in ~ GenVes <-> Ves).
            prod = sympy.Integer(1)
            for coef, tok in terms:
                prod = prod * self._read(tok.text, frame, tok) ** coef
            return prod

        where = "%s: reaction" % self._inner
        kf = self._guard(_arith(self._eval(s.kf, frame)), where)
        if s.kind == "<<":  # ~ A << (flux): flux into A
            coef, tok = s.lhs[0]
            if len(s.lhs) != 1 or tok.text not in self.states:
                raise self._err("'<<' takes one STATE on its left", tok)
            # NEURON's sparse solver puts such a flux in the right-hand side
            # only, not in its matrix: where it depends on the states (a pump,
            # -k cai) it enters at the iterate, and a scheme of otherwise
            # linear reactions takes one step.
            frame.derivs[tok.text] = frame.derivs.get(tok.text, sympy.Integer(0)) + Frozen(kf)
            # f_flux and b_flux, which later statements of the block may read,
            # are the last reaction's (nocmodl: 0 and the flux after '<<').
            frame.local["f_flux"], frame.local["b_flux"] = sympy.Integer(0), kf
            return
        fwd = kf * side(s.lhs)
        bwd = self._guard(_arith(self._eval(s.kb, frame)), where) * side(s.rhs)
        frame.local["f_flux"], frame.local["b_flux"] = fwd, bwd
        for sign, terms in ((-1, s.lhs), (1, s.rhs)):
            for coef, tok in terms:
                if tok.text in self.states:
                    frame.derivs[tok.text] = frame.derivs.get(tok.text, sympy.Integer(0)) + \
                        sign * coef * (fwd - bwd)

    def _compartment(self, s, frame):
        """`COMPARTMENT volume { states }`: recorded, applied once the block is done."""
        if not self._deriv:
            raise self._err("COMPARTMENT outside the SOLVEd KINETIC block", s.tok)
        # NEURON scales the states' rows by the volume before the block's
        # statements run (nocmodl's kinetic.c), so a LOCAL that the block
        # assigns would be read there before its assignment.
        stack = [s.volume]
        while stack:
            e = stack.pop()
            if isinstance(e, ast.Name) and e.name in frame.local:
                raise self._unsup("a COMPARTMENT volume that reads LOCAL %s (NEURON evaluates "
                                  "the volume before the block's statements)" % e.name, e.tok)
            stack += [getattr(e, k) for k in ("arg", "left", "right") if hasattr(e, k)]
            stack += list(getattr(e, "args", None) or [])
        vol = self._guard(_arith(self._eval(s.volume, frame)), "%s: COMPARTMENT" % self._inner)
        states = {self._read(n, frame, s.tok) for n in self.states}
        if getattr(vol, "free_symbols", set()) & states:
            raise self._unsup("a COMPARTMENT volume that depends on a STATE", s.tok)
        for n in s.names:
            if n.text not in self.states:
                # A declared name that is not a STATE (an ion's cao beside the
                # states it shares a volume with) has no equation to scale:
                # nocmodl skips it.
                self._read(n.text, frame, n)
                continue
            if n.text in frame.compartments:
                raise self._err("%s in a second COMPARTMENT" % n.text, n)
            frame.compartments[n.text] = (vol, self._read(n.text, frame, n))

    def _compartments(self, frame):
        """NEURON's COMPARTMENT (nocmodl's kinetic.c): a state's equation is
        volume x' = its fluxes (reactions and <<), and a CONSERVE sums volume x
        over its states. So x' = fluxes / volume here, the same backward Euler
        solution as NEURON's rows scaled by the volume, and the CONSERVE rows
        take each state times its volume."""
        if not frame.compartments:
            return
        scaled = {}
        for name, (vol, x) in frame.compartments.items():
            if name in frame.derivs:
                frame.derivs[name] = frame.derivs[name] / vol
            scaled[x] = vol * x
        frame.conserve[:] = [(lhs.xreplace(scaled) if isinstance(lhs, sympy.Basic) else lhs,
                              total) for lhs, total in frame.conserve]

    def _steady_state(self, s, frame):
        """INITIAL's `SOLVE k STEADYSTATE sparse`: as NEURON, one backward Euler step of
        1e9 ms from the states as they are, CONSERVE rows in place (exact for a linear
        scheme: its steady state with the conserved total)."""
        target = self.mod.derivatives.get(s.name)
        if target is None or target.kind != "KINETIC":
            raise self._unsup("STEADYSTATE of %s (of a KINETIC block is translated)" % s.name,
                              s.tok)
        if s.steady.text != "sparse":
            raise self._unsup("STEADYSTATE %s (sparse is translated)" % s.steady.text, s.steady)
        ph = {n: sympy.Symbol("ssx_" + n, real=True) for n in self.states}
        sub = _Frame({}, dict(frame.glob), {})
        sub.glob.update(ph)
        saved = (self._deriv, self._inner, self._block)
        self._deriv, self._inner, self._block = True, s.name, "%s (INITIAL)" % s.name
        self._exec(target.body, sub)
        self._compartments(sub)
        self._deriv, self._inner, self._block = saved
        xs = [n for n in self.states if n in sub.derivs]
        check_coupled(len(xs), "STEADYSTATE", self.file, s.tok)
        syms = [ph[n] for n in xs]
        fs = [sub.derivs[n] for n in xs]
        nonlinear = any(sympy.diff(f, x).free_symbols & set(syms) for f in fs for x in syms)
        x0 = {ph[n]: _arith(self._read(n, frame, s.tok)) for n in xs}
        pre, big = "ss%d_" % len(self.init_stages), sympy.Integer(10) ** 9
        if not nonlinear:
            stages, new = newton_step(syms, fs, big, sub.conserve, prefix=pre)
        else:
            # NEURON's _ss_sparse for a nonlinear scheme: up to SS_TRIES times
            # one Newton step of the backward Euler step of 1e9 ms; a state
            # below -1e-6 after it is set to 0 and the step is tried again from
            # there; else the step of 1e9 ms again, by Newton's method while
            # the states move by more than 1e-6 (up to SS_NEWTON iterations
            # here), negative states set to 0 after each. Where every try
            # left a negative state (NEURON reports an error), the last.
            def step_from(tag, **kw):
                """The step of 1e9 ms from fresh start symbols named by tag (their
                `s_` keeps a state's name off newton_step's own, `d0`, `r1`)."""
                y = [sympy.Symbol("%s%s_s_%s" % (pre, tag, n), real=True) for n in xs]
                to = dict(zip(syms, y))
                st, out = newton_step(y, [f.xreplace(to) for f in fs], big,
                                      [(lhs.xreplace(to), tot) for lhs, tot in sub.conserve],
                                      prefix="%s%s_" % (pre, tag), **kw)
                return y, st, out

            stages, x, found = [], list(syms), sympy.false
            small = -sympy.Rational(1, 10**6)
            for k in range(SS_TRIES):
                y, st, lin = step_from("t%d" % k)
                stages += [list(zip(y, x))] + st
                low = sympy.Or(*[u < small for u in lin])
                # Once a try left no negative state, its states stay; until
                # then the next try starts from this one's, clamped.
                x = [sympy.Piecewise((yy, found), (sympy.Piecewise((sympy.Integer(0), u < small),
                                                                   (u, True)), True))
                     for yy, u in zip(y, lin)]
                g = sympy.Symbol("%sok%d" % (pre, k))
                stages.append([(g, sympy.Or(found, sympy.Not(low)))])
                found = g
            again, more, fine = step_from("y", iterations=SS_NEWTON,
                                          tol=sympy.Rational(1, 10**6), clamp=True)
            new = [sympy.Piecewise((f, found), (yy, True)) for f, yy in zip(fine, again)]
            stages = stages + [list(zip(again, x))] + more
        for stage in stages:
            self.init_stages.append([(sym, e.xreplace(x0)) for sym, e in stage])
        # What the block keeps (a flux as a current) is its value at the new
        # states: NEURON's sparse runs the block once more when it ends.
        at_new = dict(zip(syms, new))
        for k, v in sub.glob.items():
            if k not in ph and k in self.assigned_names + self.currents:
                frame.glob[k] = v.xreplace(at_new).xreplace(x0) \
                    if isinstance(v, sympy.Basic) else v
        for n, val in zip(xs, new):
            frame.glob[n] = val.xreplace(x0)
            self._assign_tok.setdefault(n, s.tok)

    def _merge(self, frame, c, a, b):
        # Each branch's own net_sends, under its condition.
        n0 = len(frame.sends)
        frame.sends[:] = frame.sends + \
            [(sympy.And(c, g), te, f) for g, te, f in a.sends[n0:]] + \
            [(sympy.And(sympy.Not(c), g), te, f) for g, te, f in b.sends[n0:]]
        for attr in ("local", "glob", "derivs"):
            base, da, db = getattr(frame, attr), getattr(a, attr), getattr(b, attr)
            for k in set(da) | set(db):
                if attr == "local" and k not in base:
                    continue  # a LOCAL of the branch itself
                if attr == "derivs":
                    va, vb = da.get(k, sympy.Integer(0)), db.get(k, sympy.Integer(0))
                elif k in da and k in db:
                    # Both branches assign it: the value before the if is not
                    # read (else an ASSIGNED set in if/else would be kept).
                    va, vb = da[k], db[k]
                else:
                    old = base[k] if k in base else self._initial(k, self._init)
                    va, vb = da.get(k, old), db.get(k, old)
                base[k] = va if va == vb else sympy.Piecewise((va, c), (vb, True))

    def _call(self, name, args, frame, tok, stmt=False):
        f = self.mod.functions.get(name)
        if f is None:
            val = _builtin(name, args)
            if val is None:
                raise self._unsup("function %s" % name, tok)
            return val
        if len(args) != len(f.args):
            raise self._err("%s takes %d arguments, given %d" % (name, len(f.args), len(args)), tok)
        self._depth += 1
        if self._depth > 64:
            raise self._unsup("recursion (%s)" % name, tok)
        local = {a: _arith(x) for a, x in zip(f.args, args)}
        if f.kind == "FUNCTION":
            local[name] = sympy.Integer(0)
        sub = _Frame(local, frame.glob, frame.derivs, frame.conserve, frame.compartments,
                     frame.sends)
        saved = self._block, self._inner
        self._block, self._inner = "%s (%s)" % (name, saved[0]), name
        self._exec(f.body, sub)
        self._block, self._inner = saved
        self._depth -= 1
        frame.glob, frame.derivs = sub.glob, sub.derivs
        return sub.local.get(name, sympy.Integer(0)) if f.kind == "FUNCTION" else None

    def _eval(self, e, frame):
        if isinstance(e, ast.Num):
            return _num(e.text)
        if isinstance(e, ast.Name):
            return self._read(e.name, frame, e.tok)
        if isinstance(e, ast.Str):
            raise self._err("a string where a number belongs (strings are printf's format "
                            "alone)", e.tok)
        if isinstance(e, ast.CallExpr):
            args = [_arith(self._eval(x, frame)) for x in e.args]
            f = self.mod.functions.get(e.name)
            if f is not None and f.kind == "PROCEDURE":
                raise self._err("PROCEDURE %s used as a value" % e.name, e.tok)
            return self._call(e.name, args, frame, e.tok)
        if isinstance(e, ast.Unary):
            x = self._eval(e.arg, frame)
            return sympy.Not(_bool(x)) if e.op == "!" else -_arith(x)
        if isinstance(e, ast.Binary):
            a, b = self._eval(e.left, frame), self._eval(e.right, frame)
            op = e.op
            if op in ("&&", "||"):
                return (sympy.And if op == "&&" else sympy.Or)(_bool(a), _bool(b))
            a, b = _arith(a), _arith(b)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                return a / b
            if op == "^":
                return sympy.Pow(a, b)
            rel = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge,
                   "==": sympy.Eq, "!=": sympy.Ne}[op]
            return rel(a, b)
        raise self._err("unexpected expression", e.tok)


def load(path):
    from .parser import parse_file
    return Mechanism(parse_file(path))


def loads(src, file="<input>"):
    from .parser import parse
    return Mechanism(parse(src, file))
