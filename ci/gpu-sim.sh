#!/usr/bin/env bash
# gpu-sim.sh: the simulation engine's measurements on the GPU machine (issue 18), after ci/gpu.sh built build-gpu/: `hinesbatch simulate` of CA1 cells on CUDA, NVIDIA OpenCL and OpenMP (every core), each engine, side by side in one run.
# Usage: bash ci/gpu-sim.sh [CELLS...] OUTDIR   (CELLS: default 200 10000)
# OUTDIR receives sim.md (one row per run: backend, engine, precision, cells,
# compartment-steps/s, time split, hb_sim_describe's engine) and sim.tar.gz
# (each run's output). The main job's run: 50 ms at dt 0.025 ms, a current
# step at every soma, 4 recorded cells; timed without the stage waits
# (--no-split), then once with them for the split (stages engine only).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -ge 1 ] || { hb_usage; exit 2; }
out=${*: -1}
sizes=("${@:1:$#-1}")
[ ${#sizes[@]} -gt 0 ] || sizes=(200 10000)
B="$HB_ROOT/build-gpu/apps/hinesbatch"
[ -x "$B" ] || die "no $B: run ci/gpu.sh first"
work="$out/sim"
mkdir -p "$work"
pack() { tar -czf "$out/sim.tar.gz" -C "$out" sim && rm -rf "$work"; }
trap pack EXIT
trap 'exit 143' TERM INT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(hb_jobs)} OMP_PROC_BIND=${OMP_PROC_BIND:-close}
. "$HB_ROOT/ci/opencl-env.sh" "$HB_ROOT/build-gpu" >/dev/null 2>&1 || true
{
    echo "| backend | engine | precision | cells | compartment-steps/s | time split | engine that ran |"
    echo "|---|---|---|---|---|---|---|"
} >"$out/sim.md"
one() { # BACKEND ENGINE PRECISION CELLS [EXTRA...]
    local be=$1 eng=$2 prec=$3 n=$4
    shift 4
    local name="$be-$eng-$prec-$n" extra="$*"
    say "simulate $name $extra"
    local args=(simulate --cells "$n" --engine "$eng" --precision "$prec" --record 4 "$@")
    HINESBATCH_BACKEND=$be timeout 300 "$B" "${args[@]}" --no-split \
        --csv "$work/$name.csv" --spikes "$work/$name-spikes.csv" >"$work/$name.out" 2>&1 ||
        say "simulate $name: status $?"
    local split=""
    if [ "$eng" = stages ] && [ "$n" -le 1000 ]; then
        HINESBATCH_BACKEND=$be timeout 300 "$B" "${args[@]}" --csv /dev/null \
            >"$work/$name-split.out" 2>&1 || true
        split=$(sed -n 's/.*s); \(membrane.*\); compulsory.*/\1/p' "$work/$name-split.out")
    fi
    local rate ran
    rate=$(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$work/$name.out")
    ran=$(sed -n 's/.*; engine: \([^;]*\);.*/\1/p' "$work/$name.out" | head -1)
    [ -n "$split" ] || split=$(sed -n 's/.*s); \(on chip[^;]*\);.*/\1/p' "$work/$name.out")
    echo "| $be | $eng | $prec | $n | ${rate:-failed} | ${split:--} | ${ran:--} |" >>"$out/sim.md"
}
for n in "${sizes[@]}"; do
    for prec in double float; do
        for be in cuda opencl; do
            for eng in cells stages; do
                one "$be" "$eng" "$prec" "$n"
            done
        done
        [ "$n" -le 1000 ] && one openmp cells "$prec" "$n"
        [ "$n" -le 1000 ] && one openmp stages "$prec" "$n"
    done
done
cat "$out/sim.md"
