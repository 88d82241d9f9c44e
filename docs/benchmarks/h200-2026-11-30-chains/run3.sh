#!/usr/bin/env bash
# run3.sh: third device call of this record (H200): each work-item's first chain of a level (its entries, first entry, or for back-substitution its last node and parent) read before the barrier that opens the level (chains3.diff, against chains2.diff's tree: "np"), and the tree before chains ("old", chains3.diff reversed). The cell-group solver (256 and 2,560 CA1 cells, double and float) at chains of 4, 8 and whole runs; `simulate` (CUDA: 10,000 and 200 double, 10,000 float; NVIDIA OpenCL 10,000 double) at chains of 8 and 16; two rounds; then `ctest -L cuda` and NVIDIA OpenCL's cell, sim and net tests on the new tree. Output in call3-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-chains/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
D=docs/benchmarks/h200-2026-11-30-chains
w=$OUT/call3 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
rm -rf /tmp/r3 && mkdir -p /tmp/r3/old && tar --exclude='./build*' -cf - . | tar -xf - -C /tmp/r3/old &&
    (cd /tmp/r3/old && patch -s -R -p1 <$D/chains3.diff) && cp -r /tmp/r3/old /tmp/r3/np &&
    (cd /tmp/r3/np && patch -s -p1 <$D/chains2.diff) || { echo "patch failed"; exit 1; }
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$2.log" 2>&1 && cmake --build "$2" -j 5 --target hinesbatch_cli >>"$2.log" 2>&1 ||
    { echo "build $2 failed"; tail -5 "$2.log"; }; }
cfg /tmp/r3/old /tmp/r3/b-old &
cfg /tmp/r3/np /tmp/r3/b-np &
cfg . /tmp/r3/b-new &
wait
echo "builds after $(($(date +%s) - t0)) s"
(cmake --build /tmp/r3/b-new -j 6 >>/tmp/r3/b-new.log 2>&1) &
tp=$!
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
cell() { # cell BUILD CHAIN ROUND
    local x=(); [ "$2" = - ] || x=(--cell-chain "$2")
    timeout 60 /tmp/r3/b-$1/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group \
        --morphology nrn__c91662 --systems 256,2560 --precision double,float "${q[@]}" "${x[@]}" \
        --csv "$w/cell-$1-$2-r$3.csv" >/dev/null 2>"$w/cell-$1-$2-r$3.log"
    echo "round $3 cell-group $1 chain $2: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s: %s ms; ", $6, $7, $11}' "$w/cell-$1-$2-r$3.csv")" | tee -a "$w/summary.txt"
}
sim() { # sim BUILD CHAIN BACKEND CELLS PREC
    local o=/tmp/r3/sim.txt x=(); [ "$2" = - ] || x=(--cell-chain "$2")
    OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$3 timeout 90 /tmp/r3/b-$1/apps/hinesbatch \
        simulate --cells "$4" --precision "$5" --record 4 --no-split --csv /dev/null "${x[@]}" >$o 2>&1
    cat $o >>"$w/sim-$1-$2.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $o
}
for round in 1 2; do
    cell old - $round
    for c in 4 8 0; do cell np $c $round; cell new $c $round; done
    for run in "cuda 10000 double" "cuda 200 double" "cuda 10000 float" "opencl 10000 double"; do
        set -- $run
        line="round $round, simulate $1 $2 cells, $3:"
        for v in "old -" "np 8" "new 8" "new 16"; do line="$line $v: $(sim $v "$1" "$2" "$3")"; done
        echo "$line" | tee -a "$w/summary.txt"
    done
done
echo "benchmarks after $(($(date +%s) - t0)) s"
wait $tp
(cd /tmp/r3/b-new && timeout 200 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/summary.txt"
(cd /tmp/r3/b-new && OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 150 ctest -L opencl -R "net|sim|cell" \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, net|sim|cell): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.txt"
grep -h "FAIL" "$w/ctest-cuda.txt" "$w/ctest-opencl.txt" | head -5
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && cp "$w/summary.txt" "$OUT/call3-summary.txt" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
