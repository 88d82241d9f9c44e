#!/usr/bin/env bash
# check_net_mpi.sh: `hinesbatch network` under mpirun -np 1, 2 and 4 (--oversubscribe) on a host backend: a ring and a random network of a shipped neuron give the same spikes and recorded traces (merged on rank 0), byte for byte, whatever the ranks and parts; bad options refused.
# Usage: check_net_mpi.sh HINESBATCH MPIEXEC WORKDIR   (HINESBATCH_BACKEND chooses the backend)
set -euo pipefail
hb=$1 mpiexec=$2 work=$3
mkdir -p "$work"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
fail=0
for topo in ring random; do
    args=(--topology "$topo" --cells 48 --tstop 30 --fanin 6 --seed "$RANDOM")
    [ "$topo" = ring ] && args+=(--delay 1.5)
    echo "== $topo: ${args[*]}"
    "$hb" network "${args[@]}" --spikes "$work/$topo.ref.csv" --record 6 --csv "$work/$topo.ref.v.csv"
    n=$(($(wc -l <"$work/$topo.ref.csv") - 1))
    [ "$n" -ge 10 ] || { echo "FAIL: $topo: only $n spikes"; fail=1; }
    for np in 1 2 4; do
        for parts in 1 3; do
            out="$work/$topo.np$np.p$parts.csv"
            "$mpiexec" "${root[@]}" --oversubscribe -np "$np" "$hb" network "${args[@]}" \
                --parts "$parts" --spikes "$out" --record 6 --csv "$out.v.csv" | tail -1
            if cmp -s "$work/$topo.ref.csv" "$out" && cmp -s "$work/$topo.ref.v.csv" "$out.v.csv"; then
                echo "ok: $topo, $np ranks x $parts parts: the same $n spikes and 6 soma traces"
            else
                echo "FAIL: $topo, $np ranks x $parts parts differ from one process:"
                diff "$work/$topo.ref.csv" "$out" | head -5
                fail=1
            fi
        done
    done
done
# Bad options: usage errors (exit 2).
for bad in "--delay 0.01" "--topology star" "--cells 0" "--delay 3 --delay-max 2"; do
    set +e
    # shellcheck disable=SC2086 # words on purpose
    "$hb" network $bad >/dev/null 2>&1
    rc=$?
    set -e
    if [ "$rc" -ne 2 ]; then echo "FAIL: network $bad exited $rc, not 2"; fail=1; fi
done
exit $fail
