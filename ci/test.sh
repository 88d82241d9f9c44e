#!/usr/bin/env bash
# test.sh: CI entry point: dependencies, configure and build (ci/setup.sh), then every CTest test; non-zero on any failure.
# Usage: bash ci/test.sh   (from the repository root or anywhere; BUILD_DIR overrides build/,
# HB_CMAKE_ARGS adds CMake arguments, as for ci/setup.sh). The GPU machine's suites: ci/gpu.sh.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"
hb_setup_build
ctest --test-dir "$HB_BUILD" --output-on-failure -j"$(hb_jobs)"
