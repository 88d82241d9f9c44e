#!/usr/bin/env bash
# run4.sh: fourth device call of this record (H200): chains whose nodes are consecutive rows stepped with no table load (contig.diff: the schedule's HB_CELL_CONTIG flag; "ctg") against the tree without it ("np": contig.diff reversed, chains of call 2's kernel), turn about, two rounds: `simulate` (CUDA: 10,000 / 1,000 / 200 double, 10,000 float; NVIDIA OpenCL 10,000 double), the cell-group solver (256 and 2,560 CA1 cells, double and float, chains of 8); then `ctest -L cuda` and NVIDIA OpenCL's cell, sim and net tests on both trees. Output in call4-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-chains/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
D=docs/benchmarks/h200-2026-11-30-chains
w=$OUT/call4 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
rm -rf /tmp/r4 && mkdir -p /tmp/r4/np && tar --exclude='./build*' -cf - . | tar -xf - -C /tmp/r4/np &&
    (cd /tmp/r4/np && patch -s -R -p1 <$D/contig.diff) || { echo "patch failed"; exit 1; }
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$2.log" 2>&1 && cmake --build "$2" -j 8 >>"$2.log" 2>&1 ||
    { echo "build $2 failed"; tail -5 "$2.log"; }; }
cfg /tmp/r4/np /tmp/r4/b-np &
cfg . /tmp/r4/b-ctg &
wait
echo "builds after $(($(date +%s) - t0)) s"
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
sim() { # sim BUILD BACKEND CELLS PREC
    local o=/tmp/r4/sim.txt
    OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$2 timeout 90 /tmp/r4/b-$1/apps/hinesbatch \
        simulate --cells "$3" --precision "$4" --record 4 --no-split --csv /dev/null >$o 2>&1
    cat $o >>"$w/sim-$1.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $o
}
for round in 1 2; do
    for run in "cuda 10000 double" "cuda 1000 double" "cuda 200 double" "cuda 10000 float" "opencl 10000 double"; do
        set -- $run
        line="round $round, simulate $1 $2 cells, $3:"
        for b in np ctg; do line="$line $b $(sim $b "$1" "$2" "$3")"; done
        echo "$line" | tee -a "$w/summary.txt"
    done
    for b in np ctg; do
        timeout 60 /tmp/r4/b-$b/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group \
            --morphology nrn__c91662 --systems 256,2560 --precision double,float "${q[@]}" --cell-chain 8 \
            --csv "$w/cell-$b-r$round.csv" >/dev/null 2>"$w/cell-$b-r$round.log"
        echo "round $round cell-group $b: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s: %s ms; ", $6, $7, $11}' "$w/cell-$b-r$round.csv")" | tee -a "$w/summary.txt"
    done
done
echo "benchmarks after $(($(date +%s) - t0)) s"
for b in ctg np; do
    (cd /tmp/r4/b-$b && timeout 150 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda-$b.txt" 2>&1)
    echo "$b ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda-$b.txt")" | tee -a "$w/summary.txt"
    (cd /tmp/r4/b-$b && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 100 ctest -L opencl -R "net|sim|cell" \
        --output-on-failure >"$w/ctest-opencl-$b.txt" 2>&1)
    echo "$b ctest opencl (NVIDIA, net|sim|cell): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl-$b.txt")" | tee -a "$w/summary.txt"
    grep -h "FAIL" "$w/ctest-cuda-$b.txt" "$w/ctest-opencl-$b.txt" | head -3
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && cp "$w/summary.txt" "$OUT/call4-summary.txt" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
