#!/usr/bin/env bash
# main-job.sh: the main job: set up and build (ci/setup.sh), then simulate a batch of real neurons (hinesbatch simulate) and plot them.
# Arguments are passed to `hinesbatch simulate` (see `build/apps/hinesbatch simulate --help`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bash "$root/ci/setup.sh"
if [ -f "$root/ci/opencl-env.sh" ]; then
    # shellcheck disable=SC1091
    . "$root/ci/opencl-env.sh" "$build"
fi
# Default: 200 copies of the shipped CA1 pyramidal cell nrn__c91662.swc (1,508
# compartments each, Hodgkin-Huxley in the soma), 50 ms with a 1 nA step from
# 5 ms spread +-50% across the cells, on the backend HINESBATCH_BACKEND picks
# (auto: cuda, an OpenCL GPU, then openmp). Prints the performance line and
# where the traces, spikes and plot were written.
cd "$root"
if [ $# -gt 0 ]; then
    "$build/apps/hinesbatch" simulate "$@"
else
    "$build/apps/hinesbatch" simulate --csv "$build/simulate_traces.csv" \
        --spikes "$build/simulate_spikes.csv" --plot "$build/simulate.png"
fi
