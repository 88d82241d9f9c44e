#!/usr/bin/env bash
# test.sh: CI entry point: dependencies, configure and build (ci/setup.sh), every CTest test, the Python package (ci/python.sh), the L5PC against NEURON (ci/l5pc-compare.sh), NMODL's t against NEURON (ci/t-compare.sh), the cardiac models against Myokit (ci/myokit-compare.sh), the installed package (CI only), the clang and minimal builds (ci/build-matrix.sh), then the sanitizer and fuzz runs (ci/sanitize.sh); non-zero on any failure.
# Usage: bash ci/test.sh   (from the repository root or anywhere; BUILD_DIR overrides build/,
# HB_CMAKE_ARGS adds CMake arguments, as for ci/setup.sh). The GPU machine's suites: ci/gpu.sh.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"
hb_setup_build
ctest --test-dir "$HB_BUILD" --output-on-failure -j"$(hb_jobs)"
# The Python package: pip install ., a wheel, pytest (python/tests and the examples).
bash "$HB_ROOT/ci/python.sh"
# The L5PC model of data/models/l5pc (11 .mod files added to the catalogue,
# a build of its own) against NEURON's committed reference, serial and
# OpenMP, double and float: spike times within 0.05 ms, voltage within 1 mV.
BUILD="$HB_BUILD-l5pc" bash "$HB_ROOT/ci/l5pc-compare.sh" serial openmp
# NMODL's t in a whole simulation (tdrive.mod, which that build's catalogue
# also holds) against NEURON's committed run, every engine of serial, OpenMP
# and OpenCL (PoCL), double and float.
bash "$HB_ROOT/ci/t-compare.sh" "$HB_BUILD-l5pc" serial openmp opencl
# The cardiac models of the installed Myokit package (a venv with PyPI myokit,
# a build of its own) against Myokit's CVODE (rest, peak 1 mV; APD90 1%) and
# its OpenCL fibers (CV 2%) on serial, OpenMP and OpenCL: about 5 minutes.
BUILD="$HB_BUILD-myokit" bash "$HB_ROOT/ci/myokit-compare.sh" serial openmp opencl
# In CI (CI=true): the .deb installed into the system, consumers built against it.
bash "$HB_ROOT/ci/package-check.sh"
# The other compilers and backend sets: clang with OpenMP and OpenCL, gcc with
# neither (no warnings allowed), each with the whole suite.
bash "$HB_ROOT/ci/build-matrix.sh"
# The host backends again under ASan+UBSan and ThreadSanitizer, and the fuzz
# targets for a short, fixed time (about 3 minutes on 2 cores in all).
bash "$HB_ROOT/ci/sanitize.sh"
