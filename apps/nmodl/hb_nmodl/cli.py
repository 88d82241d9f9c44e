"""cli.py: the command line: .mod files in, <name>.cl and <name>.json out; exit 0, 1 (bad input), 2 (outside the subset), 3 (translator bug)."""
import argparse
import os
import sys

from .errors import NmodlError


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="hb_nmodl",
        description="Translate NMODL (.mod) mechanisms into hinesbatch kernels: for each "
                    "FILE.mod, FILE.cl (OpenCL C 1.2 over `real`; also CUDA and C11) and "
                    "FILE.json (names, defaults, units). See docs/mechanisms.md.")
    ap.add_argument("files", nargs="+", metavar="FILE.mod")
    ap.add_argument("-o", "--output-dir", default=None,
                    help="where to write FILE.cl and FILE.json (default: ., or nowhere when "
                         "--catalogue is given without -o)")
    ap.add_argument("--check", action="store_true", help="parse and translate, write nothing")
    ap.add_argument("--host-table", metavar="FILE.c",
                    help="also write a C file of uniform wrappers and a table of the "
                         "mechanisms (compiled once per precision; see runtime/hb_mech_table.h)")
    ap.add_argument("--test-kernels", metavar="FILE.cl",
                    help="also write one test kernel per mechanism (OpenCL C; CUDA through "
                         "cl_compat.cuh), as tests/nmodl runs them")
    ap.add_argument("--catalogue", metavar="DIR",
                    help="write the files, in the order given (the mechanism ids), with the "
                         "engine's dispatch over them into DIR: hb_catalogue.cl, "
                         "hb_catalogue_info.h, catalogue.json (docs/mechanisms.md)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print each mechanism's method and singularities")
    args = ap.parse_args(argv)
    from . import translate
    from .hosttable import host_table, test_kernels

    mechs, texts = [], {}
    for path in args.files:
        base = os.path.splitext(os.path.basename(path))[0]
        try:
            text, js, mech = translate(path, source_name=path)
        except NmodlError as e:
            print("hb_nmodl: %s" % e, file=sys.stderr)
            return e.exit_code
        except OSError as e:
            print("hb_nmodl: %s: %s" % (path, e.strerror), file=sys.stderr)
            return 1
        except RecursionError:
            print("hb_nmodl: %s: expressions nested too deeply" % path, file=sys.stderr)
            return 1
        except Exception as e:  # a translator bug: say so, with the file that shows it
            print("hb_nmodl: %s: internal error (%s: %s); please report it with the file" %
                  (path, type(e).__name__, e), file=sys.stderr)
            return 3
        for w in mech.warnings:
            print("hb_nmodl: %s: warning: %s" % (path, w), file=sys.stderr)
        if args.verbose:
            print("%s: %s %s, method %s, %d state slots, %d parameters" % (
                path, mech.kind, mech.name, mech.state_method, len(mech.slot_names()),
                len(mech.param_names)))
            for s in mech.singularities:
                print("  removable singularity at v = %s in %s" %
                      (", ".join(s.roots_text()), s.where))
        mechs.append((base, mech))
        texts[base] = text
        outdir = args.output_dir or (None if args.catalogue else ".")
        if not args.check and outdir:
            os.makedirs(outdir, exist_ok=True)
            _write(os.path.join(outdir, base + ".cl"), text)
            _write(os.path.join(outdir, base + ".json"), js)
    if args.host_table and not args.check:
        _write(args.host_table, host_table(mechs))
    if args.test_kernels and not args.check:
        _write(args.test_kernels, test_kernels(mechs))
    if args.catalogue:
        from .catalogue import catalogue
        try:
            disp, info, js = catalogue(mechs, texts)
        except NmodlError as e:
            print("hb_nmodl: %s" % e, file=sys.stderr)
            return e.exit_code
        if not args.check:
            os.makedirs(args.catalogue, exist_ok=True)
            _write(os.path.join(args.catalogue, "hb_catalogue.cl"), disp)
            _write(os.path.join(args.catalogue, "hb_catalogue_info.h"), info)
            _write(os.path.join(args.catalogue, "catalogue.json"), js)
    return 0


def _write(path, text):
    # Rewrite only on change: builds that depend on the file do not redo work.
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
