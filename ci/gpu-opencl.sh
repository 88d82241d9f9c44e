#!/bin/sh
# gpu-opencl.sh: builds hinesbatch and runs the whole test suite on the GPU machine's NVIDIA OpenCL platform; prints a summary.
# Usage: ci/gpu-opencl.sh [build-dir]   (default build-gpu-opencl; $OUT, if set, receives the logs)
# Env: HINESBATCH_OPENCL_PLATFORM (default NVIDIA), HB_GPU_CMAKE_ARGS (extra configure flags),
# HB_GPU_WITH_CUDA (AUTO: the CUDA backend too, so tests that open CUDA themselves run; if the
# library then fails to build, the script rebuilds with CUDA off). The apps are not built.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-gpu-opencl}
logs=${OUT:-$build}
mkdir -p "$build" "$logs"
export HINESBATCH_OPENCL_PLATFORM=${HINESBATCH_OPENCL_PLATFORM:-NVIDIA}

echo "== gpu-opencl: $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null ||
    echo "(no nvidia-smi)"

# The NVIDIA ICD: containers often carry the driver's libnvidia-opencl but no
# /etc/OpenCL/vendors/nvidia.icd; then register it for this run only.
. "$src/ci/nvidia-icd.sh" "$build"
command -v clinfo >/dev/null && clinfo -l 2>/dev/null
echo "ICDs: $(cat /etc/OpenCL/vendors/*.icd ${OCL_ICD_VENDORS:+$OCL_ICD_VENDORS/*.icd} 2>/dev/null | tr '\n' ' ')"

# OpenCL headers and loader: the system's, else the CUDA toolkit's.
. "$src/ci/opencl-env.sh" "$build"

configure_build() { # $1: CUDA AUTO or OFF
    # shellcheck disable=SC2086
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_OPENCL=ON \
        -DHINESBATCH_WITH_CUDA="$1" -DCMAKE_CUDA_ARCHITECTURES=90 -DHINESBATCH_BUILD_APPS=OFF \
        ${HB_CL_CMAKE_ARGS:-} ${HB_GPU_CMAKE_ARGS:-} >"$logs/configure.log" 2>&1 || return 2
    grep "hinesbatch backends" "$logs/configure.log"
    # Keep going past a target that fails (another backend's test, say): its
    # tests then show as not run, and the summary names it.
    rm -f "$build/libhinesbatch.a"
    cmake --build "$build" -j "$(nproc)" -- -k >"$logs/build.log" 2>&1
    build_rc=$?
    grep -E "error:|Error [0-9]" "$logs/build.log" | head -20
    [ -e "$build/libhinesbatch.a" ] || return 1
}

echo "== configure and build"
cuda=${HB_GPU_WITH_CUDA:-AUTO}
if ! configure_build "$cuda"; then
    if [ "$cuda" != OFF ]; then
        echo "the library did not build with CUDA=$cuda; again with CUDA off"
        rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
        configure_build OFF || { tail -30 "$logs/configure.log"; echo "SUMMARY: build failed"; exit 1; }
    else
        tail -30 "$logs/configure.log"
        echo "SUMMARY: build failed"
        exit 1
    fi
fi
broken=$(sed -n 's/.*\*\*\* \[.*CMakeFiles\/\([A-Za-z0-9_]*\)\.dir.*/\1/p' "$logs/build.log" | sort -u | tr '\n' ' ')
echo "compiler warnings: $(grep -c 'warning:' "$logs/build.log")"

echo "== tests (label opencl, HINESBATCH_OPENCL_PLATFORM=$HINESBATCH_OPENCL_PLATFORM)"
ctest --test-dir "$build" -L opencl --output-on-failure --timeout 300 -j 4 >"$logs/ctest.log" 2>&1
rc=$?
grep -E "Test +#|tests passed|FAIL" "$logs/ctest.log" | head -80
# The device the tests ran on, from the OpenCL test's own report.
HINESBATCH_BACKEND=opencl "$build/tests/test_opencl_plans" >"$logs/opencl_plans.log" 2>&1
device=$(sed -n 's/^OpenCL context: opencl on //p' "$logs/opencl_plans.log" | head -1)
differ=$(grep -c "worst 0 ulp" "$logs/opencl_plans.log")
total=$(grep -c "elements differ" "$logs/opencl_plans.log")
passed=$(sed -n 's/^\([0-9]*\)% tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1% of \3 passed, \2 failed/p' "$logs/ctest.log")
echo "SUMMARY: date $(date -u '+%Y-%m-%d'); device ${device:-unknown}; ctest -L opencl: ${passed:-no result};" \
     "oracle comparison: $differ of $total solves bit-identical${broken:+; targets that failed to build: $broken}"
[ $build_rc -eq 0 ] || rc=1
exit $rc
