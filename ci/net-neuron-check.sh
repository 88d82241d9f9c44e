#!/usr/bin/env bash
# net-neuron-check.sh: hinesbatch's network benchmarks against NEURON 9 (PyPI `neuron`, ParallelContext) on NEURON's own import of the same SWC: the same spikes of the same cells within 0.05 ms, on the host backends, double and float, one process and mpirun -np 2.
#
# A ring of 8 and a random network of 40 copies of each of two shipped
# neurons (fan-in 10, weights in [0, 0.4] uS, delays in [1, 5] ms), 100 ms,
# built by ci/net_neuron.py's connection list (both simulators read it);
# `hinesbatch network --neuron-conventions --connections` against NEURON's
# run (ci/net_neuron.py run). NEURON records a spike at the end of its step;
# hinesbatch at the interpolated crossing: the check takes both within
# 0.05 ms and prints how far hinesbatch's step ends are from NEURON's times.
# Double and float are judged.
#
# Usage: bash ci/net-neuron-check.sh   (BUILD=build-neuron-check VENV=$BUILD/venv
#        OUT=$BUILD/net-neuron-check; NEURON_VERSION=9.0.2)
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hb_no_args "$@"
cd "$HB_ROOT"
BUILD=${BUILD:-build-neuron-check}
VENV=${VENV:-$BUILD/venv}
OUT=${OUT:-$BUILD/net-neuron-check}
mkdir -p "$BUILD" "$OUT"
hb_cpu_cli "$BUILD"
hb_neuron_venv "$VENV"
PY=("$VENV/bin/python" ci/net_neuron.py)
quiet() { grep -v -e 'DISPLAY' -e 'No graphics' || true; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
fail=0
for swc in nrn__c91662.swc jaxley__morph_ca1_n120.swc; do
    for topo in ring:8 random:40; do
        kind=${topo%%:*} n=${topo##*:}
        conn="$OUT/$kind.$n.csv"
        "${PY[@]}" connections "$kind" "$n" 7 "$conn"
        for run in serial:double openmp:double serial:float mpi2:double; do
            be=${run%%:*} prec=${run##*:}
            out="$OUT/$swc.$kind.$be.$prec.spikes.csv"
            hb=("$BUILD/apps/hinesbatch" network --swc "data/morphologies/$swc" --cells "$n"
                --neuron-conventions --connections "$conn" --tstop 100 --weight 0.5
                --precision "$prec" --spikes "$out")
            echo "== $swc, $kind of $n, $be, $prec"
            if [ "$be" = mpi2 ]; then
                HINESBATCH_BACKEND=serial mpirun "${root[@]}" --oversubscribe -np 2 "${hb[@]}" | tail -1
            else
                HINESBATCH_BACKEND=$be "${hb[@]}" | tail -1
            fi
            # Float is judged too since the step solves for dv
            # (docs/network.md).
            if ! "${PY[@]}" run "data/morphologies/$swc" "$n" "$conn" 100 "$out" 2>&1 | quiet; then
                fail=1
            fi
        done
    done
done
[ "$fail" = 0 ] && echo "net-neuron-check: PASS" || echo "net-neuron-check: FAIL"
exit "$fail"
