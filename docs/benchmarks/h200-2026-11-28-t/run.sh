#!/usr/bin/env bash
# run.sh: the device call of this record (H200): CUDA and NVIDIA OpenCL tests of the tree with the simulation time t passed to every mechanism, and the on-chip engine's speed side by side with the tree before that merge (main job and 10,000 cells, double and float).
# Usage, from the repository root on the GPU machine, with .old/pre holding the tree
# before the merge (git archive 3cccbad):
#   OUT=DIR bash docs/benchmarks/h200-2026-11-28-t/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
root=$PWD
HB_GPU_TEST_LABELS="cuda opencl" HB_CALL_S=${HB_CALL_S:-330} bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda opencl): status $?"
grep -E "ctest|build:|FAIL|fail" "$OUT/t/summary.txt" | head -20
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
cmake -S .old/pre -B /tmp/pre -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >/dev/null 2>&1 && cmake --build /tmp/pre -j 16 --target hinesbatch_cli >/dev/null 2>&1
echo "build before: status $?"
export HINESBATCH_DATA_DIR=$root/data
A=$root/build-gpu/apps/hinesbatch
Bf=/tmp/pre/apps/hinesbatch
job=(simulate --engine cells --record 4 --csv /dev/null --no-split)
r() { sed -n 's/^performance: \([^ ]*\) .*/\1/p'; }
echo "| run | cells | precision | before | after |" >"$OUT/sim.md"
echo "|---|---|---|---|---|" >>"$OUT/sim.md"
for i in 1 2; do
    for spec in "200 double" "200 float" "10000 double" "10000 float"; do
        set -- $spec
        b=$(HINESBATCH_BACKEND=cuda timeout 60 $Bf "${job[@]}" --cells $1 --precision $2 2>&1 | r)
        a=$(HINESBATCH_BACKEND=cuda timeout 60 $A "${job[@]}" --cells $1 --precision $2 2>&1 | r)
        echo "| $i | $1 | $2 | $b | $a |" | tee -a "$OUT/sim.md"
    done
done
# Same traces: the main job's recorded soma voltages and spikes, before and after.
HINESBATCH_BACKEND=cuda $Bf simulate --record 4 --csv /tmp/b.csv --spikes /tmp/bs.csv >/dev/null 2>&1
HINESBATCH_BACKEND=cuda $A simulate --record 4 --csv /tmp/a.csv --spikes /tmp/as.csv >/dev/null 2>&1
cmp /tmp/a.csv /tmp/b.csv && cmp /tmp/as.csv /tmp/bs.csv && echo "main job on CUDA: traces and spikes byte-identical before and after"
lib=$(find build-gpu -name 'libhinesbatch.so*' -type f | head -1)
cuobjdump --dump-resource-usage "$lib" 2>/dev/null | grep -A1 "hb_sim_epoch" | grep -o "REG:[0-9]*\|STACK:[0-9]*" | tr '\n' ' '; echo
