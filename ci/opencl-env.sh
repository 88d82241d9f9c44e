#!/usr/bin/env bash
# opencl-env.sh: sourced: the PoCL environment for running the OpenCL tests on CPUs (ci/test.sh, ci/main-job.sh, ci/gpu.sh use it).
# Usage: . ci/opencl-env.sh [build-dir]   (sourced, never run: it sets no shell options and
# is safe under the caller's `set -euo pipefail`; build-dir defaults to HB_BUILD_DIR, else ./build)
# Sets, unless already set:
#   POCL_DEVICES    the CPU driver: "pthread" on PoCL < 4 (Debian 12 ships 3.1),
#                   "cpu" on PoCL >= 4 (the GPU machine has 5), where pthread was renamed.
#   POCL_CACHE_DIR  <build-dir>/pocl-cache: PoCL fails when HOME is not writable, and a
#                   cache kept across test processes means each program is compiled once
#                   per build, not once per test.
# POCL_WORK_GROUP_METHOD is left at PoCL's default: measured on PoCL 3.1 (docs/opencl.md),
# loopvec, cbs and loops build and run the suite within 0.3 s of each other.
hb_ocl_build=${1:-${HB_BUILD_DIR:-$PWD/build}}

# PoCL's version: the Debian package first, then the platform version clinfo reports.
hb_ocl_pocl_version() {
    hb_ocl_v=$(dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null) && [ -n "$hb_ocl_v" ] && {
        echo "$hb_ocl_v"
        return
    }
    if command -v clinfo >/dev/null 2>&1; then
        clinfo 2>/dev/null | sed -n 's/.*Platform Version.*PoCL \([0-9][0-9.]*\).*/\1/p' | head -1
    fi
    return 0 # callers may run under set -e: an unknown version is no error
}

if [ -z "${POCL_DEVICES:-}" ]; then
    hb_ocl_ver=$(hb_ocl_pocl_version)
    hb_ocl_major=$(printf '%s' "$hb_ocl_ver" | sed -n 's/^\([0-9][0-9]*\).*/\1/p')
    if [ -n "$hb_ocl_major" ] && [ "$hb_ocl_major" -ge 4 ]; then
        export POCL_DEVICES=cpu
    elif [ -n "$hb_ocl_major" ] || grep -q '^12' /etc/debian_version 2>/dev/null; then
        export POCL_DEVICES=pthread
    fi
    # Unknown version off Debian 12: PoCL's own default device list.
fi
if [ -z "${POCL_CACHE_DIR:-}" ]; then
    export POCL_CACHE_DIR="$hb_ocl_build/pocl-cache"
fi
mkdir -p "$POCL_CACHE_DIR"
echo "opencl-env: PoCL ${hb_ocl_ver:-(version unknown)}, POCL_DEVICES=${POCL_DEVICES:-(default)}, POCL_CACHE_DIR=$POCL_CACHE_DIR"
unset hb_ocl_build hb_ocl_ver hb_ocl_major hb_ocl_v
unset -f hb_ocl_pocl_version
