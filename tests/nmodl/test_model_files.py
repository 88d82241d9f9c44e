"""test_model_files.py: every model description in data/models (docs/mechanisms.md, "Model description files") is consistent with its .mod files and morphology, and broken copies are caught (pytest, or run as a script)."""
import copy
import glob
import json
import math
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "apps", "nmodl"))

from hb_nmodl import load  # noqa: E402

MODELS = sorted(glob.glob(os.path.join(ROOT, "data", "models", "*", "*.json")))
KINDS = {"linear": ("a", "b"), "exp": ("a", "b", "c"), "window": ("from", "to", "inside", "outside")}
_mech_cache = {}


def _mech(path):
    if path not in _mech_cache:
        _mech_cache[path] = load(path)
    return _mech_cache[path]


def _swc_types(path):
    types = set()
    with open(path) as f:
        for line in f:
            p = line.split()
            if p and not p[0].startswith("#"):
                types.add(int(float(p[1])))
    return types


def _value(spec, x):
    if not isinstance(spec, dict):
        return float(spec)
    s = spec.get("scale", 1.0)
    k = spec["kind"]
    if k == "linear":
        return s * (spec["a"] + spec["b"] * x)
    if k == "exp":
        return s * (spec["a"] + spec["b"] * math.exp(spec["c"] * (x - spec.get("x0", 0.0))))
    return s * (spec["inside"] if spec["from"] <= x < spec["to"] else spec["outside"])


def check(model, base):
    """The problems of a model description (a list of messages naming the place), [] if none."""
    errs = []
    if model.get("format") != "hinesbatch-model" or model.get("version") != 1:
        return ["format/version: not a hinesbatch-model version 1 file"]
    for key in ("celsius", "v_init"):
        if not isinstance(model.get(key), (int, float)):
            errs.append("%s: not a number" % key)
    disc = model.get("discretization", {})
    if disc.get("kind") != "odd_per_length" or not disc.get("length_um", 0) > 0:
        errs.append("discretization: unknown kind or length_um <= 0")
    swc = os.path.join(base, model.get("morphology", ""))
    types = _swc_types(swc) if os.path.isfile(swc) else None
    if types is None:
        errs.append("morphology: no file %s" % swc)
    mechs = {}
    for name, rel in model.get("mechanisms", {}).items():
        path = os.path.join(base, rel)
        if not os.path.isfile(path):
            errs.append("mechanisms.%s: no file %s" % (name, rel))
            continue
        m = _mech(path)
        if m.name != name:
            errs.append("mechanisms.%s: %s defines %s" % (name, rel, m.name))
        mechs[name] = m
    ions = model.get("ions", {})
    for ion, spec in ions.items():
        e = spec.get("e")
        if e == "nernst":
            for key in ("valence", ion + "i0", ion + "o0"):
                if not isinstance(spec.get(key), (int, float)):
                    errs.append("ions.%s.%s: missing for a Nernst potential" % (ion, key))
        elif not isinstance(e, (int, float)):
            errs.append("ions.%s.e: neither a number nor \"nernst\"" % ion)
    seen = set()
    for r in model.get("regions", []):
        where = "regions.%s" % r.get("name")
        t = r.get("swc_type")
        if t not in (1, 2, 3, 4) or t in seen:
            errs.append("%s.swc_type: %r not one of 1..4 or given twice" % (where, t))
        seen.add(t)
        for key in ("cm", "Ra"):
            if not (isinstance(r.get(key), (int, float)) and r[key] > 0):
                errs.append("%s.%s: not a positive number" % (where, key))
        for mname, params in r.get("mechanisms", {}).items():
            m = mechs.get(mname)
            if m is None:
                errs.append("%s.mechanisms.%s: not in \"mechanisms\"" % (where, mname))
                continue
            for ion in m.ions:
                if ion.name not in ions:
                    errs.append("%s.mechanisms.%s: ion %s not in \"ions\"" % (where, mname,
                                                                         ion.name))
            for pname, spec in params.items():
                at = "%s.mechanisms.%s.%s" % (where, mname, pname)
                if pname not in m.param_names:
                    errs.append("%s: %s has no PARAMETER %s" % (at, mname, pname))
                    continue
                if isinstance(spec, dict):
                    need = KINDS.get(spec.get("kind"))
                    if need is None:
                        errs.append("%s: unknown kind %r" % (at, spec.get("kind")))
                        continue
                    if spec.get("x") not in ("distance_um", "distance_normalized"):
                        errs.append("%s: x is %r" % (at, spec.get("x")))
                        continue
                    missing = [k for k in need if not isinstance(spec.get(k), (int, float))]
                    if missing:
                        errs.append("%s: %s missing" % (at, ", ".join(missing)))
                        continue
                    top = 1.0 if spec["x"] == "distance_normalized" else 3000.0
                    xs = [top * k / 200 for k in range(201)]
                elif isinstance(spec, (int, float)):
                    xs = [0.0]
                else:
                    errs.append("%s: neither a number nor a distribution" % at)
                    continue
                vals = [_value(spec, x) for x in xs]
                if not all(math.isfinite(v) for v in vals):
                    errs.append("%s: not finite" % at)
                elif pname.startswith("g") and min(vals) < 0:
                    errs.append("%s: negative conductance %g" % (at, min(vals)))
    if types is not None:
        for t in sorted(types - seen):
            errs.append("regions: the morphology has SWC type %d and no region for it" % t)
    return errs


def test_model_files_are_consistent():
    assert MODELS, "no data/models/*/*.json"
    for path in MODELS:
        model = json.load(open(path))
        errs = check(model, os.path.dirname(path))
        assert errs == [], (path, errs)
        print("%s: %d regions, %d mechanisms: consistent" % (
            os.path.relpath(path, ROOT), len(model["regions"]), len(model["mechanisms"])))


def test_l5pc_values():
    """Spot checks of the L5PC file against Hay et al. 2011 (L5PCbiophys3)."""
    path = os.path.join(ROOT, "data", "models", "l5pc", "l5pc.json")
    model = json.load(open(path))
    reg = {r["name"]: r for r in model["regions"]}
    assert [reg[n]["swc_type"] for n in ("soma", "axon", "basal", "apical")] == [1, 2, 3, 4]
    assert reg["soma"]["mechanisms"]["NaTa_t"]["gNaTa_tbar"] == 2.04
    assert reg["apical"]["cm"] == 2 and reg["basal"]["cm"] == 2 and reg["soma"]["cm"] == 1
    ih = reg["apical"]["mechanisms"]["Ih"]["gIhbar"]
    assert abs(_value(ih, 0.0) - 2e-4 * (2.087 - 0.8696)) < 1e-15
    lva = reg["apical"]["mechanisms"]["Ca_LVAst"]["gCa_LVAstbar"]
    assert _value(lva, 700) == 0.0187 and abs(_value(lva, 600) - 1.87e-4) < 1e-18
    assert _value(lva, 685) == 0.0187 and _value(lva, 885) == _value(lva, 600)  # [from, to)
    kinds = set()
    for r in model["regions"]:
        kinds.update(r["mechanisms"])
    assert len(kinds - {"pas", "CaDynamics_E2"}) >= 8  # issue 19: at least eight channel types


def test_broken_copies_are_caught():
    """Each mistake a hand-edited file can have gives a message naming its place."""
    path = os.path.join(ROOT, "data", "models", "l5pc", "l5pc.json")
    good = json.load(open(path))
    base = os.path.dirname(path)

    def broken(edit, part):
        m = copy.deepcopy(good)
        edit(m)
        errs = check(m, base)
        assert any(part in e for e in errs), (part, errs)

    def apical(m):
        return [r for r in m["regions"] if r["name"] == "apical"][0]

    broken(lambda m: m.update(version=2), "format/version")
    broken(lambda m: apical(m)["mechanisms"]["Ih"].update(gbar=1), "Ih has no PARAMETER gbar")
    broken(lambda m: apical(m)["mechanisms"].update(kdr={}), "mechanisms.kdr: not in")
    broken(lambda m: apical(m).update(cm=0), "regions.apical.cm")
    broken(lambda m: m["regions"].pop(1), "SWC type 2 and no region")
    broken(lambda m: m["regions"][1].update(swc_type=1), "given twice")
    broken(lambda m: m["ions"].pop("ca"), "ion ca not in")
    broken(lambda m: m["ions"]["ca"].pop("cao0"), "ions.ca.cao0")
    broken(lambda m: m["mechanisms"].update(Im="mod/Ih.mod"), "mod/Ih.mod defines Ih")
    broken(lambda m: m["mechanisms"].update(Im="mod/nope.mod"), "no file mod/nope.mod")
    broken(lambda m: apical(m)["mechanisms"]["Ih"]["gIhbar"].update(kind="cubic"),
           "unknown kind 'cubic'")
    broken(lambda m: apical(m)["mechanisms"]["Ih"]["gIhbar"].pop("c"), "c missing")
    broken(lambda m: apical(m)["mechanisms"]["Ih"]["gIhbar"].update(a=-3.0),
           "negative conductance")
    broken(lambda m: m["discretization"].update(length_um=0), "discretization")


if __name__ == "__main__":
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            fn()
            print("ok", name)
