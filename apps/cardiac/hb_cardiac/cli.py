"""cli.py: hb_cardiac's command line: --catalogue DIR model files (writes the catalogue), or --check (translate, write nothing)."""
import argparse
import re
import os
import sys

from .codegen import catalogue
from .errors import CardiacError
from .loader import load


def main(argv=None):
    ap = argparse.ArgumentParser(prog="hb_cardiac",
                                 description="Cardiac cell models (.mmt, .cellml; read by Myokit) "
                                             "to hinesbatch kernels")
    ap.add_argument("files", nargs="+", help="model files; NAME=FILE names the model")
    ap.add_argument("--catalogue", metavar="DIR", help="write hb_card_catalogue.cl, "
                    "hb_card_catalogue_info.h and catalogue.json into DIR")
    ap.add_argument("--check", action="store_true", help="translate, write nothing")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    try:
        models = []
        for f in a.files:
            name = None
            if "=" in f:
                name, f = f.split("=", 1)
                if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
                    raise CardiacError("NAME=FILE: %r is not a C identifier" % name, f)
            cm = load(f, name)
            models.append(cm)
        cl, h, js = catalogue(models)
        if a.verbose:
            for cm in models:
                meth = {}
                for s, m in cm.methods.items():
                    meth.setdefault(m, []).append(s)
                print("%s: %d states (%s), %d parameters, %d singularities removed" %
                      (cm.name, len(cm.states), "; ".join("%s %d" % (k, len(v)) for k, v in
                                                          meth.items()),
                       len(cm.params), len(cm.singularities)))
        if a.catalogue and not a.check:
            os.makedirs(a.catalogue, exist_ok=True)
            for fn, text in (("hb_card_catalogue.cl", cl), ("hb_card_catalogue_info.h", h),
                             ("catalogue.json", js)):
                with open(os.path.join(a.catalogue, fn), "w") as out:
                    out.write(text)
    except CardiacError as e:
        print(str(e), file=sys.stderr)
        return e.exit_code
    except Exception as e:  # a translator bug: said as one, with the files
        print("hb_cardiac: internal error on %s: %s: %s" % (" ".join(a.files), type(e).__name__, e),
              file=sys.stderr)
        return 3
    return 0
