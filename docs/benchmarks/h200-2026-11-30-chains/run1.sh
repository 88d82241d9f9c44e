#!/usr/bin/env bash
# run1.sh: first device call of this record (H200): the cell-group schedule in chains (chains.diff: unbranched runs off the trunk, each walked by one work-item, levels of chains) against the tree before (chains.diff reversed), turn about, two rounds: `simulate` of CA1 cells (CUDA: 10,000 / 1,000 / 200 double, 10,000 float; NVIDIA OpenCL: 10,000 double) and the cell-group solver (`bench --strategy cell-group`, 256 and 2,560 CA1 cells, double and float); then `ctest -L cuda` and NVIDIA OpenCL's cell, sim and net tests on the new tree. Output in call1-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-chains/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
D=docs/benchmarks/h200-2026-11-30-chains
w=$OUT/call1 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
rm -rf /tmp/r1 && mkdir -p /tmp/r1/old && tar --exclude='./build*' -cf - . | tar -xf - -C /tmp/r1/old &&
    (cd /tmp/r1/old && patch -s -R -p1 <$D/chains.diff) || { echo "patch failed"; exit 1; }
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$2.log" 2>&1 && cmake --build "$2" -j 8 --target hinesbatch_cli >>"$2.log" 2>&1 ||
    { echo "build $2 failed"; tail -5 "$2.log"; }; }
cfg /tmp/r1/old /tmp/r1/b-old &
cfg . /tmp/r1/b-new &
wait
echo "builds after $(($(date +%s) - t0)) s"
(cmake --build /tmp/r1/b-new -j 6 >>/tmp/r1/b-new.log 2>&1) &
tp=$!
sim() { # sim BUILD BACKEND CELLS PREC
    local o=/tmp/r1/sim.txt
    if [ "$2" = opencl ]; then
        OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=opencl timeout 90 \
            /tmp/r1/b-$1/apps/hinesbatch simulate --cells "$3" --precision "$4" --record 4 --no-split --csv /dev/null >$o 2>&1
    else
        HINESBATCH_BACKEND=cuda timeout 60 /tmp/r1/b-$1/apps/hinesbatch simulate --cells "$3" --precision "$4" --record 4 \
            --no-split --csv /dev/null >$o 2>&1
    fi
    cat $o >>"$w/sim-$1.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $o
}
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
for round in 1 2; do
    for run in "cuda 10000 double" "cuda 1000 double" "cuda 200 double" "cuda 10000 float" "opencl 10000 double"; do
        set -- $run
        line="round $round, $1 $2 cells, $3:"
        for b in old new; do line="$line $b $(sim $b "$1" "$2" "$3")"; done
        echo "$line" | tee -a "$w/summary.txt"
    done
    for b in old new; do
        timeout 60 /tmp/r1/b-$b/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group \
            --morphology nrn__c91662 --systems 256,2560 --precision double,float "${q[@]}" \
            --csv "$w/cell-$b-r$round.csv" >/dev/null 2>"$w/cell-$b-r$round.log"
        echo "round $round cell-group $b: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s: %s ms; ", $6, $7, $11}' "$w/cell-$b-r$round.csv")" | tee -a "$w/summary.txt"
    done
done
echo "benchmarks after $(($(date +%s) - t0)) s"
wait $tp
(cd /tmp/r1/b-new && timeout 240 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/summary.txt"
(cd /tmp/r1/b-new && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 200 ctest -L opencl -R "net|sim|cell" \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, net|sim|cell): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.txt"
grep -h "FAIL" "$w/ctest-cuda.txt" "$w/ctest-opencl.txt" | head -5
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && cp "$w/summary.txt" "$OUT/call1-summary.txt" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
