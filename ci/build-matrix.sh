#!/usr/bin/env bash
# build-matrix.sh: the other compilers and backend sets than ci/setup.sh's build, each configured, built and tested: clang with every backend found, gcc with OpenMP and OpenCL off.
# Usage: bash ci/build-matrix.sh [clang|minimal]...   (default: both; run by ci/test.sh)
# Build trees beside build/ (BUILD_DIR's parent): build-clang/, build-minimal/.
#   clang    CC=clang (and CXX=clang++ for the C++ consumer), OpenMP and OpenCL as
#            found (AUTO), CUDA off (nvcc's host compiler is gcc): the whole suite;
#   minimal  gcc with OpenMP and OpenCL off (the serial backend alone, the CLI built
#            without OpenMP): the whole suite.
# The sanitizer builds (ci/sanitize.sh) add clang without OpenMP and OpenCL; the GPU
# machine (ci/gpu.sh) builds gcc with CUDA and OpenCL.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
    configs=(clang minimal)
fi
parent=$(dirname "$HB_BUILD")
for c in "${configs[@]}"; do
    case "$c" in
    clang)
        dir=$parent/build-clang
        env=(CC=clang CXX=clang++)
        args=(-DHINESBATCH_WITH_CUDA=OFF) ;;
    minimal)
        dir=$parent/build-minimal
        env=(CC=gcc CXX=g++)
        args=(-DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENMP=OFF -DHINESBATCH_WITH_OPENCL=OFF) ;;
    -h | --help)
        hb_usage
        exit 0 ;;
    *) die "unknown configuration '$c' (clang or minimal; --help prints the usage)" ;;
    esac
    say "$c: configure and build in $dir"
    mkdir -p "$dir"
    env "${env[@]}" cmake -S "$HB_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${args[@]}" \
        >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; die "$c: configure failed"; }
    grep "hinesbatch backends" "$dir.configure.log" | sed "s/^-- /$c: /"
    # Both compilers must build the tree without a warning.
    cmake --build "$dir" -j"$(hb_jobs)" >"$dir.build.log" 2>&1 ||
        { cat "$dir.build.log"; die "$c: build failed"; }
    if grep -q "warning:" "$dir.build.log"; then
        grep -B2 -A3 "warning:" "$dir.build.log"
        die "$c: the build has warnings"
    fi
    ctest --test-dir "$dir" --output-on-failure -j"$(hb_jobs)"
done
say "build matrix: ${configs[*]} passed"
