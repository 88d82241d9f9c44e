#!/usr/bin/env bash
# main-job.sh: the main job: set up and build (ci/setup.sh), then simulate a batch of real neurons (hinesbatch simulate) and plot them.
# Usage: bash ci/main-job.sh [SIMULATE-ARGS...]   (BUILD_DIR overrides build/)
# Default: 200 copies of the shipped CA1 pyramidal cell nrn__c91662.swc (1,508
# compartments each, Hodgkin-Huxley in the soma), 50 ms with a 1 nA step from
# 5 ms spread +-50% across the cells, on the backend HINESBATCH_BACKEND picks
# (auto: cuda, an OpenCL GPU, then openmp). Prints the performance line and writes
# BUILD/simulate_traces.csv (--csv), BUILD/simulate_spikes.csv (--spikes) and
# BUILD/simulate.png (--plot: spike raster and traces).
# Arguments are added to these: a --csv, --spikes or --plot of your own replaces
# that default file (--record 0, no traces, drops the default --csv and --plot);
# any other option is passed on (`--cells 1000 --hh-everywhere`). Fails (1) when an
# output, the plot included, cannot be written, saying why.
# `bash ci/main-job.sh --help` prints this and `hinesbatch simulate --help`, building nothing.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exe=$HB_BUILD/apps/hinesbatch

# The options given, up to "--" (after it nothing is an option).
csv=1 spikes=1 plot=1 prev=""
for a in "$@"; do
    case $a in
    --) break ;;
    -h | --help)
        hb_usage
        echo
        if [ -x "$exe" ]; then
            "$exe" simulate --help
        else
            echo "(hinesbatch is not built yet, so its options cannot be listed: $exe is missing;"
            echo " bash ci/main-job.sh or bash ci/setup.sh builds it)"
        fi
        exit 0 ;;
    --csv | --csv=*) csv=0 ;;
    --spikes | --spikes=*) spikes=0 ;;
    --plot | --plot=*) plot=0 ;;
    esac
    if [[ "$a" =~ ^--record=[+-]?0+$ ]] || { [ "$prev" = --record ] && [[ "$a" =~ ^[+-]?0+$ ]]; }; then
        csv=0 plot=0 # --csv and --plot need recorded traces
    fi
    prev=$a
done

hb_setup_build
defaults=()
[ $csv = 0 ] || defaults+=(--csv "$HB_BUILD/simulate_traces.csv")
[ $spikes = 0 ] || defaults+=(--spikes "$HB_BUILD/simulate_spikes.csv")
[ $plot = 0 ] || defaults+=(--plot "$HB_BUILD/simulate.png")
cd "$HB_ROOT"
# The defaults first: an option given twice takes its last value (docs/cli.md).
"$exe" simulate "${defaults[@]}" "$@"
