"""ast.py: the parsed .mod file: declarations, blocks, statements and expressions (plain classes, each keeps its token for errors)."""


class Node:
    def __init__(self, tok, **kw):
        self.tok = tok
        self.__dict__.update(kw)

    def __repr__(self):
        fields = ", ".join("%s=%r" % (k, v) for k, v in self.__dict__.items() if k != "tok")
        return "%s(%s)" % (type(self).__name__, fields)


# Expressions
class Num(Node):      # text
    pass


class Name(Node):     # name
    pass


class Str(Node):      # text (with its quotes): printf's format only
    pass


class CallExpr(Node):  # name, args
    pass


class Index(Node):    # name, index (expression): an array's element, before arrays.py
    pass


class Unary(Node):    # op ('-' or '!'), arg
    pass


class Binary(Node):   # op, left, right
    pass


# Statements
class Assign(Node):   # name, expr, index (an array's element before arrays.py, else None)
    pass


class DerivAssign(Node):  # name (the state), expr, index (as Assign's)
    pass


class If(Node):       # cond, then (list), orelse (list)
    pass


class CallStmt(Node):  # name, args
    pass


class Local(Node):    # names, sizes (name -> size token, for arrays, before arrays.py)
    pass


class From(Node):     # var (name token), lo, hi, by (expression or None), body: unrolled by arrays.py
    pass


class Solve(Node):    # name, method (name token or None), steady (STEADYSTATE method token or None)
    pass


class Reaction(Node):  # lhs, rhs: [(coef, name token)] ([(coef, token, index)] before arrays.py); kind '<->', '->' or '<<'; kf, kb
    pass


class Conserve(Node):  # lhs, total (expressions)
    pass


class Compartment(Node):  # volume (expression), names (state name tokens), var (index token or None before arrays.py)
    pass


# Declarations and blocks
class Var(Node):      # name, default (str or None), units (str or None), lo, hi, size (array size token or None, before arrays.py)
    pass


class Ion(Node):      # name, read (list), write (list), valence (str or None)
    pass


class Func(Node):     # kind ('FUNCTION' or 'PROCEDURE'), name, args (list of str), body
    pass


class Module:
    """Everything the parser read from one file."""

    def __init__(self, file):
        self.file = file
        self.suffix = None         # (name, tok)
        self.point_process = None  # (name, tok)
        self.ions = []
        self.nonspecific = []      # names
        self.electrode = []        # names: currents into the cell (positive inward)
        self.range = []
        self.global_ = []
        self.parameters = []       # Var
        self.constants = []        # Var (CONSTANT, DEFINE, UNITS constants)
        self.assigned = []         # Var
        self.states = []           # Var
        self.initial = None        # list of statements
        self.breakpoint = None
        self.derivatives = {}      # name -> Func (kind 'DERIVATIVE', no args)
        self.functions = {}        # name -> Func
        self.net_receive = None    # Func (kind 'NET_RECEIVE')
        self.net_initial = None    # NET_RECEIVE's INITIAL: list of statements
        self.net_initial_tok = None
        self.display = {}          # an array element's variable name -> its name shown, ca_0 -> ca[0]
