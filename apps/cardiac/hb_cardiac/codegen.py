"""codegen.py: a cardiac model's generated text (OpenCL C 1.2 over `real`: its step, the per-cell loop and the kernel), the catalogue of models and its host header, through hb_nmodl's printer."""
import json
import re

import sympy

from hb_nmodl.codegen import _HELPERS, _inline_trivial
from hb_nmodl.cprint import _ATOM, CPrinter
from hb_nmodl.model import DT, V, _is_bool
from hb_nmodl.numerics import state_symbol

from .loader import PACE
from .numerics import step


class _Printer(CPrinter):
    """hb_nmodl's printer, with acos and asin of an argument clamped to [-1, 1]: analytic
    buffering (Decker 2009's Cardano roots) takes acos of a ratio that is within [-1, 1] in
    exact arithmetic and a rounding step outside it in float (NaN); inside, nothing changes.
    At print time: a clamp in the expressions would be differentiated into step functions."""

    def p(self, e):
        if isinstance(e, (sympy.acos, sympy.asin)):
            name = "acos" if isinstance(e, sympy.acos) else "asin"
            return "%s(fmin(fmax(%s, (real)-1), (real)1))" % (name, self(e.args[0])), _ATOM
        return super().p(e)


def macro(cm):
    return "HB_CARD_" + cm.name.upper()


def _temps():
    k = 0
    while True:
        yield sympy.Symbol("t%d" % k, real=True)
        k += 1


def _step_function(cm):
    """hb_card_<m>_step(dt, pace, p, st): one step of every state, from the old values."""
    news = step(cm)
    names = {V: "s_" + cm.states[0], DT: "dt", PACE: "pace"}
    loads = []
    for k, s in enumerate(cm.states):
        sym = cm.symbol(s)
        names[sym] = "s_" + s
        loads.append((sym, "st[%d]" % k))
    for k, p in enumerate(cm.params):
        sym = sympy.Symbol("p_" + p.name, real=True)
        names[sym] = "p_" + p.name
        loads.append((sym, "p[%d]" % k))
    exprs = [e for _, e in news]
    reps, reduced = sympy.cse(exprs, symbols=_temps(), order="none")
    reps, reduced = _inline_trivial(reps, reduced)
    pr = _Printer(names)
    used = set()
    body = []
    for s, e in reps:
        names[s] = str(s)
        used |= e.free_symbols
        ctype = "int" if _is_bool(e) else "real"
        body.append("    const %s %s = %s;" % (ctype, names[s], pr(e)))
    for (name, _), e in zip(news, reduced):
        used |= e.free_symbols
        body.append("    st[%d] = %s;" % (cm.states.index(name), pr(e)))
    body = _drop_unused(body)
    used = set(re.findall(r"\b[A-Za-z_]\w*\b", "\n".join(body)))
    head = ["    const real %s = %s;" % (names[sym], src) for sym, src in loads if names[sym] in used]
    if "pace" not in used:
        head.insert(0, "    (void)pace;")
    sig = ("HB_FN void HB_KERNEL(hb_card_%s_step)(const real dt, const real pace, const real *p, "
           "real *st)" % cm.name)
    return "%s\n{\n%s\n}\n" % (sig, "\n".join(head + body))


def _drop_unused(body):
    """Temporaries nothing reads dropped (cse leaves one now and then), last first."""
    need, out = set(), []
    for line in reversed(body):
        m = re.match(r"\s*const \w+ (t\d+) = (.*);$", line)
        if m and m.group(1) not in need:
            continue
        rhs = m.group(2) if m else line
        need |= set(re.findall(r"\bt\d+\b", rhs))
        out.append(line)
    return out[::-1]


# The per-cell loop: the same text runs as the kernel's body (one work-item per
# cell) and on the host (a loop over cells), so every backend takes the same
# steps. State and parameters in private arrays indexed by constants only
# (registers on a GPU); global arrays structure-of-arrays (slot k of cell i
# at k n + i: neighbouring work-items read neighbouring words).
_RUN = """\
/* Steps step0 .. step0 + nsteps - 1 of cell i of n: pace = level while
 * step >= on[0] and (step - on[0]) mod on[2] < on[1] (on[2] 0: once); after
 * every step whose number + 1 is a multiple of rec_every, a recorded cell
 * (recslot[i] >= 0) writes its states with rcol[k] >= 0 into row
 * (step + 1) / rec_every - 1 - rec_row0 of rec (ncol reals a row, nrcol a cell). */
HB_FN void HB_KERNEL(hb_card_@M@_run)(const hb_long i, const hb_long n, const hb_long step0,
    const hb_int nsteps, const real dt, const hb_long on0, const hb_long on1, const hb_long on2,
    const real level, __global real *state, __global const real *prm,
    __global const hb_long *recslot, __global const hb_int *rcol, const hb_int nrcol,
    const hb_long ncol, const hb_long rec_every, const hb_long rec_row0, __global real *rec)
{
    real st[@NS@];
    real p[@NPP@];
@LOAD@
    const hb_long slot = recslot[i];
    /* The pace phase: step - on0, reduced modulo the period once here and
     * kept by a counter (no 64-bit division per step on a GPU). */
    hb_long ph = step0 - on0;
    if (on2 > 0 && ph > 0)
        ph %= on2;
    for (hb_int s = 0; s < nsteps; ++s) {
        const hb_long k = step0 + s;
        const int on = ph >= 0 && ph < on1;
        ph += 1;
        if (on2 > 0 && ph >= on2)
            ph -= on2;
        HB_KERNEL(hb_card_@M@_step)(dt, on ? level : (real)0, p, st);
        if (slot >= 0 && (k + 1) % rec_every == 0) {
            __global real *row = rec + ((k + 1) / rec_every - 1 - rec_row0) * ncol + slot * nrcol;
@REC@
        }
    }
@STORE@
}
#ifdef HB_CARD_KERNELS
__kernel void HB_KERNEL(hb_card_@M@_cells)(const hb_long n, const hb_long step0, const hb_int nsteps,
    const real dt, const hb_long on0, const hb_long on1, const hb_long on2, const real level,
    __global real *state, __global const real *prm, __global const hb_long *recslot,
    __global const hb_int *rcol, const hb_int nrcol, const hb_long ncol,
    const hb_long rec_every, const hb_long rec_row0, __global real *rec)
{
    const hb_long i = (hb_long)get_global_id(0);
    if (i < n)
        HB_KERNEL(hb_card_@M@_run)(i, n, step0, nsteps, dt, on0, on1, on2, level, state, prm,
                                   recslot, rcol, nrcol, ncol, rec_every, rec_row0, rec);
}
#endif
"""


def model_text(cm, index):
    m = macro(cm)
    ns, np_ = len(cm.states), len(cm.params)
    out = ["/* %s (catalogue model %d), from %s: %d states, %d parameters. */" %
           (cm.name, index, cm.source, ns, np_)]
    out.append("#if !defined(HB_CARD_ONLY) || HB_CARD_ONLY == %d" % index)
    out.append("#define %s_NSTATE %d" % (m, ns))
    out.append("#define %s_NPARAM %d" % (m, np_))
    out.append(_step_function(cm))
    load = ["    st[%d] = state[(hb_long)%d * n + i];" % (k, k) for k in range(ns)]
    load += ["    p[%d] = prm[(hb_long)%d * n + i];" % (k, k) for k in range(np_)]
    if not np_:
        load.append("    (void)prm; (void)p;")
    store = ["    state[(hb_long)%d * n + i] = st[%d];" % (k, k) for k in range(ns)]
    rec = ["            if (rcol[%d] >= 0) row[rcol[%d]] = st[%d];" % (k, k, k) for k in range(ns)]
    text = (_RUN.replace("@M@", cm.name).replace("@NS@", str(ns))
            .replace("@NPP@", str(max(np_, 1))).replace("@LOAD@", "\n".join(load))
            .replace("@STORE@", "\n".join(store)).replace("@REC@", "\n".join(rec)))
    out.append(text)
    out.append("#endif")
    return "\n".join(out) + "\n"


def describe(cm):
    return {
        "name": cm.name, "source": cm.source,
        "states": [{"name": s, "myokit": q, "init": v, "units": u, "method": cm.methods[s]}
                   for s, q, v, u in zip(cm.states, cm.qnames, cm.init, cm.units)],
        "parameters": [{"name": p.name, "myokit": p.qname, "default": p.default, "units": p.unit}
                       for p in cm.params],
        "stimulus_parameter": cm.stimulus_param,
        "protocol": list(cm.protocol) if cm.protocol else None,
        "singularities": [{"where": s.where, "v": s.roots_text()} for s in cm.singularities],
        "guards_replaced": cm.dropped_guards,
    }


def _c_strings(xs):
    return "{" + ", ".join('"%s"' % x for x in xs) + "}" if xs else "{NULL}"


def _c_doubles(xs):
    return "{" + ", ".join(repr(float(x)) for x in xs) + "}" if xs else "{0.0}"


def catalogue(models):
    """models: CardiacModels in catalogue order. Returns (kernel text, host header, JSON)."""
    names = [cm.name for cm in models]
    for n in names:
        if names.count(n) > 1:
            from .errors import CardiacError
            raise CardiacError("catalogue: two models named %s" % n, "<catalogue>")
    texts = [model_text(cm, k) for k, cm in enumerate(models)]
    cl = ["/* hb_card_catalogue.cl: generated by hb_cardiac --catalogue; do not edit. Cardiac",
          " * cell models (docs/cardiac.md), each a step function, a per-cell loop and (with",
          " * HB_CARD_KERNELS) its kernel; HB_CARD_ONLY=k keeps model k alone. Needs `real`,",
          " * hb_long, hb_int, __global, HB_FN and HB_KERNEL (kernels_cl/hb_prelude.cl,",
          " * backend_cuda/cl_compat.cuh, backend_omp/cardiac/card_host.h). */",
          "#ifndef HB_CARD_CATALOGUE_CL", "#define HB_CARD_CATALOGUE_CL",
          "#define HB_CARD_NMODELS %d" % len(models), _HELPERS]
    cl += texts
    cl.append("#endif")
    h = ["/* hb_card_catalogue_info.h: generated by hb_cardiac --catalogue; do not edit. The cardiac",
         " * catalogue's models for the host: names, states, parameters, defaults, initial values. */",
         "#ifndef HB_CARD_CATALOGUE_INFO_H", "#define HB_CARD_CATALOGUE_INFO_H", "",
         "#include <stddef.h>", "",
         "#define HB_CARD_NMODELS %d" % len(models), ""]
    for cm in models:
        n = cm.name
        h.append("static const char *const hb_card_%s_states[] = %s;" % (n, _c_strings(cm.states)))
        h.append("static const char *const hb_card_%s_params[] = %s;" %
                 (n, _c_strings([p.name for p in cm.params])))
        h.append("static const double hb_card_%s_init[] = %s;" % (n, _c_doubles(cm.init)))
        h.append("static const double hb_card_%s_defaults[] = %s;" %
                 (n, _c_doubles([p.default for p in cm.params])))
    h.append("")
    h.append("/* {name, nstate, nparam, states, params, init, defaults, stimulus parameter or NULL,")
    h.append(" *  embedded protocol start, duration, period (ms; duration 0: none)} */")
    h.append("#define HB_CARD_CATALOGUE_ENTRIES \\")
    rows = []
    for cm in models:
        n = cm.name
        pr = cm.protocol or (0.0, 0.0, 0.0)
        rows.append('    {"%s", %d, %d, hb_card_%s_states, hb_card_%s_params, hb_card_%s_init, '
                    'hb_card_%s_defaults, %s, %r, %r, %r}' %
                    (n, len(cm.states), len(cm.params), n, n, n, n,
                     '"%s"' % cm.stimulus_param if cm.stimulus_param else "NULL",
                     float(pr[0]), float(pr[1]), float(pr[2])))
    h.append(", \\\n".join(rows))
    h.append("")
    h.append("/* The per-cell loops by model (host backends): HB_CARD_RUN_LIST(_d) or (_s). */")
    h.append("#define HB_CARD_RUN_LIST(suffix) {%s}" %
             ", ".join("hb_card_%s_run##suffix" % cm.name for cm in models))
    h.append("/* X(index, name) per model (the CUDA launcher's switch). */")
    h.append("#define HB_CARD_MODELS_X(X) %s" % " ".join("X(%d, %s)" % (k, cm.name)
                                                        for k, cm in enumerate(models)))
    h.append("#define HB_CARD_KERNEL_NAMES {%s}" %
             ", ".join('"hb_card_%s_cells"' % cm.name for cm in models))
    h.append("")
    h.append("#endif")
    js = json.dumps({"models": [describe(cm) for cm in models]}, indent=2) + "\n"
    return "\n".join(cl) + "\n", "\n".join(h) + "\n", js
