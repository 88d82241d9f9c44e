#!/usr/bin/env bash
# test.sh: CI entry point: dependencies, configure and build (ci/setup.sh), then every CTest test; non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bash "$root/ci/setup.sh"
# PoCL settings for the OpenCL tests on the CPU, where the OpenCL engineer keeps them.
if [ -f "$root/ci/opencl-env.sh" ]; then
    # shellcheck disable=SC1091
    . "$root/ci/opencl-env.sh" "$build"
fi
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir "$build" --output-on-failure -j"$jobs"
