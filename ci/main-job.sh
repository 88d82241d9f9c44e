#!/usr/bin/env bash
# main-job.sh: the main job: set up and build (ci/setup.sh), then simulate a batch of real neurons (hinesbatch simulate) and plot them.
# Usage: bash ci/main-job.sh [SIMULATE-ARGS...]   (BUILD_DIR overrides build/)
# Arguments are passed to `hinesbatch simulate`; `bash ci/main-job.sh --help` lists them.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_setup_build
# Default: 200 copies of the shipped CA1 pyramidal cell nrn__c91662.swc (1,508
# compartments each, Hodgkin-Huxley in the soma), 50 ms with a 1 nA step from
# 5 ms spread +-50% across the cells, on the backend HINESBATCH_BACKEND picks
# (auto: cuda, an OpenCL GPU, then openmp). Prints the performance line and
# where the traces, spikes and plot were written.
cd "$HB_ROOT"
if [ $# -gt 0 ]; then
    "$HB_BUILD/apps/hinesbatch" simulate "$@"
else
    "$HB_BUILD/apps/hinesbatch" simulate --csv "$HB_BUILD/simulate_traces.csv" \
        --spikes "$HB_BUILD/simulate_spikes.csv" --plot "$HB_BUILD/simulate.png"
fi
