#!/usr/bin/env bash
# run.sh: the device call of this record (H200): the cell-group elimination with a node's children two at a time (hb_cell_phases.cl) against the tree before it, side by side: the cell-group solver on the CA1 cell and the simulation's on-chip epoch (main job, 10,000 cells); CUDA tests on the new kernels.
# Usage, from the repository root on the GPU machine, with .old/kernels_cl/solver/hb_cell_phases.cl
# holding the kernel before the change (git show e604d59:kernels_cl/solver/hb_cell_phases.cl):
#   OUT=DIR bash docs/benchmarks/h200-2026-11-28-pairs/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
root=$PWD
HB_GPU_TEST_LABELS=cuda HB_CALL_S=${HB_CALL_S:-150} bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?"
grep -E "ctest|build:" "$OUT/t/summary.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
d=/tmp/before
rm -rf $d && mkdir -p $d/src
tar --exclude='./build*' --exclude='./.old' --exclude='./.git' -cf - . | tar -x -C $d/src
cp .old/kernels_cl/solver/hb_cell_phases.cl $d/src/kernels_cl/solver/
cmake -S $d/src -B $d/b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >/dev/null 2>&1 && cmake --build $d/b -j 16 --target hinesbatch_cli >/dev/null 2>&1
echo "build before: status $?"
export HINESBATCH_DATA_DIR=$root/data
A=$root/build-gpu/apps/hinesbatch
Bf=$d/b/apps/hinesbatch
pts=(bench --backend cuda --kind hines --morphology nrn__c91662 --serial-max-rows 0 --max-seconds 20 --strategy cell-group)
for prec in double float; do
    for w in before after; do
        exe=$Bf; [ $w = after ] && exe=$A
        timeout 100 $exe "${pts[@]}" --precision $prec --systems 256,2560,25600 --csv "$OUT/cg-$prec-$w.csv" >/dev/null 2>&1
        echo "cell-group $prec $w: $(cut -d, -f7,11,12,16 "$OUT/cg-$prec-$w.csv" | sed 1d | tr '\n' ' ')"
    done
done
job=(simulate --engine cells --record 4 --csv /dev/null --no-split)
r() { sed -n 's/^performance: \([^ ]*\) .*/\1/p'; }
echo "| run | cells | precision | before | after |" >"$OUT/sim.md"
echo "|---|---|---|---|---|" >>"$OUT/sim.md"
for i in 1 2 3; do
    for spec in "200 double" "200 float" "10000 double" "10000 float"; do
        set -- $spec
        b=$(HINESBATCH_BACKEND=cuda timeout 60 $Bf "${job[@]}" --cells $1 --precision $2 2>&1 | r)
        a=$(HINESBATCH_BACKEND=cuda timeout 60 $A "${job[@]}" --cells $1 --precision $2 2>&1 | r)
        echo "| $i | $1 | $2 | $b | $a |" | tee -a "$OUT/sim.md"
    done
done
