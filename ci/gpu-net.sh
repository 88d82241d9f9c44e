#!/usr/bin/env bash
# gpu-net.sh: the network records of issue 22 on the GPU machine, after ci/gpu.sh built build-gpu: ring and random networks on CUDA, NVIDIA OpenCL and OpenMP (all cores), strong and weak scaling over MPI ranks on the host, and 1 and 2 ranks sharing the GPU; one line per run in OUTDIR/net.log.
# Usage: bash ci/gpu-net.sh OUTDIR   (BUILD=build-gpu; ONLY=scaling: the MPI and shared-GPU runs)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:?OUTDIR}
mkdir -p "$out"
hb=${BUILD:-build-gpu}/apps/hinesbatch
log="$out/net.log"
cores=$(nproc)
# No OMP_PROC_BIND for the ranks: bound threads of every rank would pile onto
# the first cores (measured: 16 ranks ran 16x slower than one).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export HINESBATCH_OPENCL_PLATFORM=${HINESBATCH_OPENCL_PLATFORM:-NVIDIA}
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none -x OMP_NUM_THREADS -x HINESBATCH_BACKEND)
small=data/morphologies/jaxley__morph_minimal.swc
ca1=data/morphologies/nrn__c91662.swc
# one LABEL ENV... -- ARGS: a run, its last two lines (the network's summary).
one() {
    local label=$1
    shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    echo "== $label" >>"$log"
    env "${envs[@]}" timeout 120 "$@" 2>&1 | tail -2 >>"$log"
}
echo "machine: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $cores cores" >"$log"
# ONLY=scaling: the MPI and shared-GPU runs alone.
if [ "${ONLY:-all}" = all ]; then
# Point-like cells (4 compartments): both engines on CUDA (a work-group per
# cell against a work-item per compartment), NVIDIA OpenCL, OpenMP.
for topo in ring random; do
    for n in 1000 10000 100000 1000000; do
        for eng in cells stages; do
            one "$topo $n minimal cuda $eng" HINESBATCH_BACKEND=cuda -- "$hb" network --topology $topo \
                --cells $n --tstop 50 --swc $small --engine $eng
        done
        [ "$n" -le 100000 ] && one "$topo $n minimal opencl" HINESBATCH_BACKEND=opencl -- "$hb" network \
            --topology $topo --cells $n --tstop 50 --swc $small
        [ "$n" -le 100000 ] && one "$topo $n minimal openmp" HINESBATCH_BACKEND=openmp OMP_PROC_BIND=close -- "$hb" network \
            --topology $topo --cells $n --tstop 50 --swc $small
    done
done
# CA1 cells (728 compartments), random network.
for n in 1000 10000; do
    for be in cuda opencl openmp; do
        one "random $n c91662 $be" HINESBATCH_BACKEND=$be OMP_PROC_BIND=close -- "$hb" network --topology random \
            --cells $n --tstop 50 --swc $ca1
    done
done
one "random 10000 c91662 cuda float" HINESBATCH_BACKEND=cuda -- "$hb" network --topology random \
    --cells 10000 --tstop 50 --swc $ca1 --precision float
fi
# Strong scaling on the host: 2,000 CA1 cells over 1..16 ranks (threads = cores / ranks).
for np in 1 2 4 8 16; do
    one "strong mpi np=$np c91662 2000 openmp" HINESBATCH_BACKEND=openmp OMP_NUM_THREADS=$((cores / np)) -- \
        "${mpi[@]}" -np $np "$hb" network --topology random --cells 2000 --tstop 50 --swc $ca1
done
# Weak scaling: 250 CA1 cells per rank, one thread each.
for np in 1 2 4 8 16; do
    one "weak mpi np=$np c91662 $((250 * np)) serial" HINESBATCH_BACKEND=serial -- \
        "${mpi[@]}" -np $np "$hb" network --topology random --cells $((250 * np)) --tstop 50 --swc $ca1
done
# The GPU shared by 1 and 2 ranks, and 2 parts in one process.
for spec in "1 1" "2 1" "1 2"; do
    set -- $spec
    one "gpu share np=$1 parts=$2 random 100000 minimal cuda" HINESBATCH_BACKEND=cuda -- \
        "${mpi[@]}" -np $1 "$hb" network --topology random --cells 100000 --tstop 50 --swc $small --parts $2
    one "gpu share np=$1 parts=$2 random 10000 c91662 cuda" HINESBATCH_BACKEND=cuda -- \
        "${mpi[@]}" -np $1 "$hb" network --topology random --cells 10000 --tstop 50 --swc $ca1 --parts $2
done
cat "$log"
