#!/usr/bin/env bash
# setup.sh: installs the build dependencies (Debian/Ubuntu, apt-get, idempotent), configures and builds hinesbatch into build/.
# Usage: bash ci/setup.sh          (from the repository root or anywhere; BUILD_DIR overrides build/)
# Extra CMake arguments may be passed in HB_CMAKE_ARGS, e.g. HB_CMAKE_ARGS="-DHINESBATCH_WITH_CUDA=OFF".
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"

# Compiler, CMake, pkg-config; PoCL (OpenCL on the CPU, so the OpenCL backend is
# built and tested without a GPU); python3-matplotlib for the plotting scripts;
# python3-venv and python3-dev for the Python package (ci/python.sh);
# clang with its sanitizer/libFuzzer runtime and OpenMP for ci/sanitize.sh;
# file for CPack's Debian dependencies (dpkg-shlibdeps); python3-sympy for the
# NMODL translator (apps/nmodl) and its tests, python3-pytest to run them;
# Open MPI for `mpirun hinesbatch network` and its tests (label mpi);
# libsundials-dev for Myokit's CVODE simulation, the reference of
# ci/myokit-compare.sh (the cardiac models, docs/cardiac.md).
packages=(build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
          clinfo python3 python3-matplotlib python3-venv python3-dev clang libclang-rt-dev libomp-dev file
          python3-sympy python3-pytest openmpi-bin libopenmpi-dev libsundials-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to install ${missing[*]}"
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
else
    say "all packages present"
fi

# shellcheck disable=SC2086 # HB_CMAKE_ARGS is a list of words
cmake -S "$HB_ROOT" -B "$HB_BUILD" -DCMAKE_BUILD_TYPE=Release ${HB_CMAKE_ARGS:-}
cmake --build "$HB_BUILD" -j"$(hb_jobs)"
