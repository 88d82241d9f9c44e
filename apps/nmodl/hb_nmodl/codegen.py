"""codegen.py: one mechanism's generated text (OpenCL C 1.2 over `real`, also CUDA and C11 through a prelude) and its JSON description."""
import json
import re

import sympy

from .cprint import CPrinter
from .errors import NmodlError
from .model import CELSIUS, DT, FLAG, TIME, V, WEIGHT, _is_bool, conn_symbol
from .numerics import Function, build

_HELPERS = """\
#ifndef HB_FN
#define HB_FN inline /* OpenCL C, as kernels_cl/sim/membrane.cl; CUDA and the host prelude define it */
#endif
/* Guarded helpers, once per precision (the CUDA build includes this text in
 * two namespaces, the host tests in two translation units). */
#ifdef HB_DOUBLE
#ifndef HB_NMODL_HELPERS_D
#define HB_NMODL_HELPERS_D
#define HB_NMODL_HELPERS_NOW
#endif
#else
#ifndef HB_NMODL_HELPERS_S
#define HB_NMODL_HELPERS_S
#define HB_NMODL_HELPERS_NOW
#endif
#endif
#ifdef HB_NMODL_HELPERS_NOW
#undef HB_NMODL_HELPERS_NOW
/* x/(exp(x)-1): the series 1 - x/2 + x^2/12 (next term x^4/720) below
 * |x| = 1e-4, where the quotient would lose every digit in float; expm1
 * elsewhere. Removable singularities of the .mod file are rewritten into it. */
HB_FN real HB_KERNEL(hb_nmodl_exprelr)(const real x)
{
    if (fabs(x) < (real)1e-4)
        return (real)1 - x * ((real)0.5 - x * ((real)1 / (real)12));
    return x / expm1(x);
}
/* Its derivative (exp(x) - 1 - x exp(x))/(exp(x) - 1)^2, for conductances
 * di/dv of currents with such a quotient: the series
 * -1/2 + x/6 - x^3/180 + x^5/5040 - x^7/151200 below |x| = 0.1 (next term
 * 2e-7 x^9), where the numerator cancels. */
HB_FN real HB_KERNEL(hb_nmodl_exprelr_d)(const real x)
{
    if (fabs(x) < (real)0.1) {
        const real x2 = x * x;
        return (real)-0.5 + x * ((real)1 / (real)6 - x2 * ((real)1 / (real)180 -
               x2 * ((real)1 / (real)5040 - x2 * ((real)1 / (real)151200))));
    }
    const real em = expm1(x);
    return (em - x * exp(x)) / (em * em);
}
#endif
"""


def _trivial(e):
    return e.is_Atom or (e.is_Mul and len(e.args) == 2 and e.args[0] == -1 and e.args[1].is_Atom)


def _inline_trivial(reps, reduced):
    """cse's temporaries for a constant or -x put back: v - e reads better than -e - t2."""
    sub, kept = {}, []
    for s, e in reps:
        e = e.xreplace(sub)
        if _trivial(e):
            sub[s] = e
        else:
            kept.append((s, e))
    return kept, [r.xreplace(sub) for r in reduced]


def _costly(e):
    """e calls a function or raises to a power that is not a small integer (the work worth hoisting)."""
    for a in sympy.preorder_traversal(e):
        if isinstance(a, sympy.Function) or (a.is_Pow and not (a.exp.is_Integer and abs(a.exp) <= 4)):
            return True
    return False


def hoist_celsius(fn):
    """fn with each largest subexpression of celsius alone (and numbers) that does real work
    (a Q10 factor: 3^((celsius - 6.3)/10)) replaced by a symbol tc0_, tc1_, ...: the engine
    computes those once per launch (hb_mech_NAME_tconst), not per instance and step.
    Returns (the new Function, [(symbol, expression)])."""
    table = {}

    def walk(e):
        if not isinstance(e, sympy.Basic) or e.is_Atom:
            return e
        # A Piecewise's (value, condition) pair is its structure, not a value:
        # `else { tau = 1/q10 }` gives the pair (1/q10, True), of celsius alone;
        # its value is hoisted below, the pair kept.
        if e.free_symbols == {CELSIUS} and not _is_bool(e) and _costly(e) and \
                not isinstance(e, sympy.functions.elementary.piecewise.ExprCondPair):
            if e not in table:
                table[e] = sympy.Symbol("tc%d_" % len(table), real=True)
            return table[e]
        if not e.args:
            return e
        new = [walk(a) for a in e.args]
        return e if all(a is b for a, b in zip(new, e.args)) else e.func(*new)

    stages = [[(sym, walk(e)) for sym, e in stage] for stage in fn.stages]
    writes = [(lv, walk(e)) for lv, e in fn.writes]
    return Function(fn.name, stages, writes), [(sym, e) for e, sym in table.items()]


def cname(mech):
    return re.sub(r"[^A-Za-z0-9_]", "_", mech.name)


def macro(mech):
    return "HB_MECH_" + cname(mech).upper()


def conn_lines(mech, prm, store_cast=""):
    """C lines before and after a call of mech's net_receive (taking c_[])
    that keep one connection's values at cs[] as every engine and the host
    table keep them: cs[1 ..] are the values (0, or as the user set them
    before the run: hb_net_set_values); cs[0] is 0 until the connection's
    first event, which runs NET_RECEIVE's INITIAL first, from those values
    (NEURON runs it at finitialize from the NetCon's weight vector; nothing
    reads the values before). prm: the parameters' array; store_cast: the
    cast of a value stored back."""
    k = len(mech.conn_args)
    before = ["    real c_[%d];" % k,
              "    for (int q = 0; q < %d; ++q)" % k,
              "        c_[q] = (real)cs[1 + q];",
              "    if (cs[0] == 0) {"]
    if mech.net_init_frame is not None:
        before.append("        HB_KERNEL(hb_mech_%s_net_init)((real)weight, %s, c_);" %
                      (cname(mech), prm))
    before += ["        cs[0] = 1;",
               "    }"]
    after = ["    for (int q = 0; q < %d; ++q)" % k,
             "        cs[1 + q] = %sc_[q];" % store_cast]
    return before, after


def input_name(mech, n):
    """The C name of ion input n: a current the file also WRITEs (an output
    of current() under its own name) is received as in_<name>."""
    return "in_" + n if n in mech.rw_currents else n


def signatures(mech):
    """Parameter lists (C text) of each function, and the symbol -> C name map of the inputs."""
    ions = ["const real %s" % input_name(mech, n) for n in mech.ion_inputs]
    outs = ["real *%s" % c for c in mech.ion_currents]
    # The time only where a block reads it: a mechanism that does not keeps
    # the text it had before t was translated.
    t = ["const real t"] if mech.uses_t else []
    return {
        "init": ["const real v", "const real celsius"] + t + ions + ["const real *prm", "real *st"] +
                (["real *snd"] if mech.init_sends else []),
        "current": ["const real v", "const real celsius"] + t + ions +
                   ["const real *prm", "const real *st", "real *g", "real *i"] + outs,
        "currents": ["const real v", "const real celsius"] + t + ions +
                    ["const real *prm", "const real *st", "real *out"],
        "state": ["const real v", "const real dt", "const real celsius"] + t + ions +
                 ["const real *prm", "real *st"],
        "net_receive": ["const real weight"] + t + (["const real flag"] if mech.has_send else []) +
                       ["const real *prm", "real *st"] +
                       (["real *cs"] if mech.conn_args else []) +
                       (["real *snd"] if mech.has_send else []),
        "net_init": ["const real weight", "const real *prm", "real *cs"],
    }


def _emit(mech, kind, fn, params, extra_names=None):
    slots = mech.slot_names()
    names = {V: "v", CELSIUS: "celsius", DT: "dt", WEIGHT: "weight", TIME: "t", FLAG: "flag"}
    names.update(extra_names or {})
    for n in mech.ion_inputs:
        names[sympy.Symbol(n, real=True)] = input_name(mech, n)
    loads = []
    for k, p in enumerate(mech.param_names):
        names[sympy.Symbol("p_" + p, real=True)] = "p_" + p
        loads.append((sympy.Symbol("p_" + p, real=True), "prm[%d]" % k, "p_" + p))
    for k, s in enumerate(slots):
        names[sympy.Symbol("s_" + s, real=True)] = "s_" + s
        loads.append((sympy.Symbol("s_" + s, real=True), "st[%d]" % k, "s_" + s))
    for k, a in enumerate(mech.conn_args):
        names[conn_symbol(a)] = "c_" + a
        loads.append((conn_symbol(a), "cs[%d]" % k, "c_" + a))
    body = []
    used = set()
    counter = [0]

    def fresh():
        while True:
            s = sympy.Symbol("t%d" % counter[0], real=True)
            counter[0] += 1
            yield s

    gen = fresh()
    stage_lines = []
    for stage in fn.stages + [None]:
        if stage is None:
            exprs = [e for _, e in fn.writes]
        else:
            exprs = [e for _, e in stage]
        reps, reduced = sympy.cse(exprs, symbols=gen, order="none")
        reps, reduced = _inline_trivial(reps, reduced)
        lines = []
        for s, e in reps:
            names[s] = str(s)
            lines.append((s, e))
        if stage is None:
            stage_lines.append((lines, list(zip([w for w, _ in fn.writes], reduced))))
        else:
            for (s, _), r in zip(stage, reduced):
                names[s] = str(s)
                lines.append((s, r))
            stage_lines.append((lines, []))
    pr = CPrinter(names)
    text_body = []
    for lines, writes in stage_lines:
        for s, e in lines:
            used |= e.free_symbols
            ctype = "int" if _is_bool(e) else "real"  # a condition cse shares
            text_body.append("    const %s %s = %s;" % (ctype, names[s], pr(e)))
        for lv, e in writes:
            used |= e.free_symbols if isinstance(e, sympy.Basic) else set()
            text_body.append("    %s = %s;" % (lv, pr(sympy.sympify(e))))
    head = []
    for sym, src_, nm in loads:
        if sym in used:
            head.append("    const real %s = %s;" % (nm, src_))
    # Inputs a mechanism does not use are still there (one shape for every
    # mechanism), named once so that compilers do not warn.
    text = "\n".join(head + text_body)
    unused = []
    for decl in params:
        nm = decl.split()[-1].lstrip("*")
        if not re.search(r"\b%s\b" % re.escape(nm), text):
            unused.append("    (void)%s;" % nm)
    head = unused + head
    sig = "HB_FN void HB_KERNEL(hb_mech_%s_%s)(%s)" % (cname(mech), kind, ", ".join(params))
    return "%s\n{\n%s\n}\n" % (sig, "\n".join(head + text_body))


def generate(mech, source_name):
    try:
        return _generate(mech, source_name)
    except NmodlError as e:  # raised without a place (a constant, the printer): the file's
        if e.file == "<input>":
            e.file, e.line, e.col = mech.file, max(e.line, 1), max(e.col, 1)
        raise


def _generate(mech, source_name):
    funcs = build(mech)
    sigs = signatures(mech)
    m = macro(mech)
    slots = mech.slot_names()
    out = []
    out.append("/* %s: generated by hb_nmodl from %s (%s %s); do not edit. */" %
               (cname(mech) + ".cl", source_name,
                "SUFFIX" if mech.kind == "density" else "POINT_PROCESS", mech.name))
    out.append("/* Interface and units: docs/mechanisms.md. Needs `real`, HB_FN and HB_KERNEL:\n"
               " * kernels_cl/hb_prelude.cl (OpenCL), backend_cuda/cl_compat.cuh (CUDA),\n"
               " * apps/nmodl/runtime/hb_mech_host.h (C on the host). */")
    out.append("#ifndef %s_NSTATE" % m)
    out.append("#define %s_NSTATE %d /* st[]: %s */" % (m, len(slots), ", ".join(slots) or "none"))
    out.append("#define %s_NSTATEVAR %d /* of which STATEs (the rest: values kept between "
               "calls) */" % (m, len(mech.states)))
    out.append("#define %s_NPARAM %d /* prm[]: %s */" % (m, len(mech.param_names),
                                                         ", ".join(mech.param_names) or "none"))
    out.append("#define %s_POINT %d /* 1: point process (nA, uS); 0: density (mA/cm2, S/cm2) */"
               % (m, 1 if mech.kind == "point" else 0))
    out.append("#define %s_NION_IN %d /* %s */" % (m, len(mech.ion_inputs),
                                                   ", ".join(mech.ion_inputs) or "none"))
    out.append("#define %s_NION_OUT %d /* %s */" % (m, len(mech.ion_currents),
                                                    ", ".join(mech.ion_currents) or "none"))
    out.append("#define %s_NCUR %d /* currents out[] gives: %s */" % (
        m, len(mech.currents), ", ".join(mech.currents) or "none"))
    out.append("#define %s_HAS_STATE %d" % (m, 1 if funcs["state"] else 0))
    out.append("#define %s_HAS_NET_RECEIVE %d" % (m, 1 if funcs["net_receive"] else 0))
    if mech.conn_args:  # only then: mechanisms without them keep the text they had
        out.append("#define %s_NCONN %d /* cs[]: each connection's %s */" % (
            m, len(mech.conn_args), ", ".join(mech.conn_args)))
        out.append("#define %s_HAS_NET_INIT %d" % (m, 1 if funcs["net_init"] else 0))
    if mech.has_send:  # likewise: net_receive() takes the flag and fills snd[]
        out.append("#define %s_NSEND %d /* snd[]: (1 if sent, time, flag) per net_send */" % (
            m, len(mech.sends)))
        out.append("#define %s_NSEND_INIT %d /* init()'s snd[], INITIAL's net_sends */" % (
            m, len(mech.init_sends)))
    for k, s in enumerate(slots):
        out.append("#define %s_S_%s %d" % (m, s, k))
    for k, p in enumerate(mech.param_names):
        out.append("#define %s_P_%s %d" % (m, p, k))
    out.append("#define %s_STATE_NAMES {%s}" % (m, ", ".join('"%s"' % mech.shown(s)
                                                            for s in slots)))
    out.append("#define %s_PARAM_NAMES {%s}" % (m, ", ".join('"%s"' % mech.shown(p)
                                                            for p in mech.param_names)))
    out.append("#define %s_PARAM_DEFAULTS {%s}" % (
        m, ", ".join(repr(float(sympy.Rational(p.default))) for p in mech.params)))
    out.append("#endif")
    out.append("")
    out.append(_HELPERS)
    for kind in ("init", "current", "currents", "state", "net_receive", "net_init"):
        fn = funcs[kind]
        if fn is None and kind in ("net_receive", "net_init"):
            continue
        if fn is None:  # no SOLVE: state() exists and does nothing (one shape)
            fn = Function("state", [], [])
        if kind == "state":
            out += _emit_state(mech, fn, sigs[kind])
        else:
            out.append(_emit(mech, kind, fn, sigs[kind]))
    return "\n".join(out)


def _emit_state(mech, fn, params):
    """state as _tconst (its factors of celsius alone, once per launch), _state_tc (the
    update, given them) and _state (the two: the same arithmetic wherever it runs)."""
    n, m = cname(mech), macro(mech)
    fn_tc, consts = hoist_celsius(fn)
    names = {sym: "tc[%d]" % k for k, (sym, _) in enumerate(consts)}
    pr = CPrinter({CELSIUS: "celsius"})
    out = ["#ifndef %s_NTC" % m,
           "#define %s_NTC %d /* tc[]: factors of celsius alone that the state update uses */"
           % (m, len(consts)),
           "#endif",
           "HB_FN void HB_KERNEL(hb_mech_%s_tconst)(const real celsius, real *tc)" % n,
           "{"]
    if not consts:
        out += ["    (void)celsius;", "    (void)tc;"]
    for k, (_, e) in enumerate(consts):
        out.append("    tc[%d] = %s;" % (k, pr(e)))
    out += ["}", ""]
    text = _emit(mech, "state", fn_tc, params + ["const real *tc"], names)
    out.append(text.replace("HB_KERNEL(hb_mech_%s_state)(" % n,
                            "HB_KERNEL(hb_mech_%s_state_tc)(" % n, 1))
    args = ", ".join(d.split()[-1].lstrip("*") for d in params)
    out += ["HB_FN void HB_KERNEL(hb_mech_%s_state)(%s)" % (n, ", ".join(params)),
            "{",
            "    real tc[%s_NTC + 1];" % m,
            "    HB_KERNEL(hb_mech_%s_tconst)(celsius, tc);" % n,
            "    HB_KERNEL(hb_mech_%s_state_tc)(%s, tc);" % (n, args),
            "}",
            ""]
    return out


def describe(mech, source_name):
    """The JSON description: names, defaults, units, ions, method, singularities."""
    def num(x):
        return None if x is None else float(sympy.Rational(x))

    d = {
        "name": mech.name,
        "c_name": cname(mech),
        "kind": mech.kind,
        "source": source_name,
        "units": ("nA, uS" if mech.kind == "point" else "mA/cm2, S/cm2") + "; mV, ms, degC",
        "states": [{"name": mech.shown(s.name), "units": s.units} for s in mech.mod.states],
        "kept": [{"name": mech.shown(n), "from": "PARAMETER" if n in mech.param_names else "ASSIGNED"}
                 for n in mech.store],
        # A geometry parameter (diam) is filled by the engine, never set.
        "parameters": [dict({"name": mech.shown(p.name), "default": num(p.default),
                             "units": p.units,
                             "min": num(p.lo), "max": num(p.hi)},
                            **({"geometry": True} if p.name in mech.geometry else {}))
                       for p in mech.params],
        "ions": [{"name": i.name, "inputs": i.inputs, "currents": i.currents,
                  "concentrations": i.concentrations,
                  "valence": None if i.valence is None else float(i.valence)}
                 for i in mech.ions],
        "ion_inputs": mech.ion_inputs,
        "ion_currents": mech.ion_currents,
        "nonspecific_currents": list(mech.mod.nonspecific),
        "electrode_currents": list(mech.mod.electrode),
        "method": mech.state_method if mech.solve else None,
        "net_receive": mech.net_frame is not None,
        "singularities": [{"where": s.where, "v": s.roots_text()}
                          for s in mech.singularities],
        "functions": {k: "hb_mech_%s_%s(%s)" % (cname(mech), k, ", ".join(v))
                      for k, v in signatures(mech).items()
                      if (k != "net_receive" or mech.net_frame is not None) and
                      (k != "net_init" or mech.net_init_frame is not None)},
        "warnings": mech.warnings,
    }
    if mech.uses_t:  # only then: the descriptions of mechanisms without t stay as they were
        d["reads_t"] = True
    if mech.conn_args:  # likewise: each connection's values, NET_RECEIVE's later arguments
        d["connection"] = list(mech.conn_args)
    if mech.has_send:  # and the net_send statements of NET_RECEIVE and INITIAL
        d["net_send"] = len(mech.sends)
        d["initial_net_send"] = len(mech.init_sends)
    return d


def dumps_json(mech, source_name):
    return json.dumps(describe(mech, source_name), indent=2) + "\n"
