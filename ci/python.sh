#!/usr/bin/env bash
# python.sh: the Python package: a fresh venv, `pip install .` from the checkout, a wheel built (pip wheel), then pytest on python/tests (examples included) with every CPU backend.
# Usage: bash ci/python.sh   (from the repository root or anywhere; ci/test.sh runs it)
# Needs python3 with venv and its headers (Debian: python3-venv python3-dev, ci/setup.sh)
# and network for PyPI (scikit-build-core, nanobind, numpy, scipy, pytest, matplotlib).
# HB_PYTHON picks the interpreter (python3); the venv and the wheel go to BUILD_DIR
# (build/python-venv, build/dist). HINESBATCH_WITH_CUDA=OFF (and _OPENCL, _OPENMP) in the
# environment choose backends as for CMake; by default those the toolchain allows.
# HB_PY_OFFLINE=1 (the GPU machine: no network) uses python3's own packages
# (scikit-build-core, nanobind, numpy, scipy, pytest, matplotlib, cupy): no venv,
# `pip install --no-build-isolation --no-deps --target BUILD_DIR/python-site .`,
# then the same wheel and tests, and a CuPy array solved in place on the GPU.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"

py=${HB_PYTHON:-python3}
venv=$HB_BUILD/python-venv
site=$HB_BUILD/python-site
dist=$HB_BUILD/dist
start=$(hb_now)
rm -rf "$venv" "$site" "$dist"
mkdir -p "$HB_BUILD"
# The extension's CMake build reuses build-py/ (pyproject.toml), so the wheel
# after the install compiles nothing new.
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(hb_jobs)}
cd "$HB_ROOT"
if [ "${HB_PY_OFFLINE:-}" = 1 ]; then
    vpy=$py
    say "offline: $($py --version 2>&1), its own packages; install into $site"
    "$vpy" -m pip install -q --no-build-isolation --no-deps --target "$site" .
    export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
    nobi=--no-build-isolation
else
    say "venv in $venv ($($py --version 2>&1))"
    "$py" -m venv "$venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    vpy=$venv/bin/python
    "$vpy" -m pip install -q --upgrade pip
    "$vpy" -m pip install -q numpy scipy pytest matplotlib
    say "pip install ."
    "$vpy" -m pip install -q .
    nobi=
fi
say "pip wheel . -w $dist"
"$vpy" -m pip wheel -q $nobi --no-deps . -w "$dist"
whl=$(ls "$dist"/hinesbatch-*.whl)
# The wheel holds the package only: no C headers, static library or CMake files.
"$vpy" - "$whl" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
stray = [n for n in names if not n.startswith(("hinesbatch/", "hinesbatch-"))]
assert not stray, f"files outside the package in the wheel: {stray}"
assert any(n.startswith("hinesbatch/_core") for n in names), "no extension module in the wheel"
print(f"python: {sys.argv[1]}: {len(names)} files")
PY

# shellcheck source=ci/opencl-env.sh
. "$HB_ROOT/ci/opencl-env.sh" "$HB_BUILD"
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
cd "$HB_BUILD" # not the checkout: the installed package is what gets imported
"$vpy" -c 'import hinesbatch as hb; print("python: hinesbatch", hb.__version__, "backends", hb.backends())'
"$vpy" -m pytest -q -rs "$HB_ROOT/python/tests"
# Where CuPy finds a GPU: the issue's check, a CuPy array solved in place on the device.
if "$vpy" -c 'import cupy; assert cupy.cuda.runtime.getDeviceCount() > 0' 2>/dev/null; then
    "$vpy" - <<'PY'
import cupy as cp, numpy as np, hinesbatch as hb
rng = np.random.default_rng(1)
a, c = rng.uniform(-1, 1, (2, 4096, 256))
b = np.abs(a) + np.abs(c) + 1
d = rng.uniform(-1, 1, (4096, 256))
ref = hb.solve_tridiagonal(a, b, c, d, backend="serial")
g = [cp.asarray(x) for x in (a, b, c, d)]
ptr = g[3].data.ptr
ctx = hb.Context("cuda")
hb.solve_tridiagonal(*g, inplace=True, context=ctx)
err = float(np.max(np.abs(cp.asnumpy(g[3]) - ref)))
assert g[3].data.ptr == ptr and err < 1e-12, err
print(f"python: CuPy array (4096 x 256) solved in place on {ctx.describe()}: "
      f"same device pointer, max difference from the serial oracle {err:.1e}")
PY
fi
say "passed in $(($(hb_now) - start)) s"
