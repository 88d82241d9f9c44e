#!/usr/bin/env bash
# main-job.sh: the main job: set up and build (ci/setup.sh), then solve a batch of random Hines systems and report time, throughput and the worst residual.
# Arguments are passed to `hinesbatch solve` (see `build/apps/hinesbatch solve --help`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bash "$root/ci/setup.sh"
if [ -f "$root/ci/opencl-env.sh" ]; then
    # shellcheck disable=SC1091
    . "$root/ci/opencl-env.sh" "$build"
fi
# 10,000 mono-morphology cells of 256 compartments and 2,000 multi-morphology
# ones, double precision, on the backend HINESBATCH_BACKEND picks (auto: cuda,
# an OpenCL GPU, then openmp).
if [ $# -gt 0 ]; then
    "$build/apps/hinesbatch" solve "$@"
else
    "$build/apps/hinesbatch" solve --systems 10000 --rows 256 --reps 10 --seed 1
    "$build/apps/hinesbatch" solve --systems 2000 --rows 256 --multi --reps 10 --seed 2
fi
