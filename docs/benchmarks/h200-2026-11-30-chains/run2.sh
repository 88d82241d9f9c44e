#!/usr/bin/env bash
# run2.sh: second device call of this record (H200): how long a chain should be. The cell-group solver (`bench --strategy cell-group`, 256 and 2,560 CA1 cells, double and float) with --cell-chain 1, 2, 4, 8 and whole runs (0 here: the rule at the time, whole runs), and the tree before chains (chains2.diff reversed); the simulation's epoch (`simulate --cell-chain`, CUDA, 10,000 and 200 double, 10,000 float) at 4, 8, 16 and whole runs (0). Two rounds. Output in call2-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-chains/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
D=docs/benchmarks/h200-2026-11-30-chains
w=$OUT/call2 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
rm -rf /tmp/r2 && mkdir -p /tmp/r2/old && tar --exclude='./build*' -cf - . | tar -xf - -C /tmp/r2/old &&
    (cd /tmp/r2/old && patch -s -R -p1 <$D/chains2.diff) || { echo "patch failed"; exit 1; }
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$2.log" 2>&1 && cmake --build "$2" -j 8 --target hinesbatch_cli >>"$2.log" 2>&1 ||
    { echo "build $2 failed"; tail -5 "$2.log"; }; }
cfg /tmp/r2/old /tmp/r2/b-old &
cfg . /tmp/r2/b-new &
wait
echo "builds after $(($(date +%s) - t0)) s"
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
cell() { # cell BUILD CHAIN ROUND
    local x=(); [ "$2" = - ] || x=(--cell-chain "$2")
    timeout 60 /tmp/r2/b-$1/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group \
        --morphology nrn__c91662 --systems 256,2560 --precision double,float "${q[@]}" "${x[@]}" \
        --csv "$w/cell-$1-$2-r$3.csv" >/dev/null 2>"$w/cell-$1-$2-r$3.log"
    echo "round $3 cell-group $1 chain $2: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s: %s ms; ", $6, $7, $11}' "$w/cell-$1-$2-r$3.csv")" | tee -a "$w/summary.txt"
}
sim() { # sim CHAIN CELLS PREC
    local o=/tmp/r2/sim.txt
    HINESBATCH_BACKEND=cuda timeout 60 /tmp/r2/b-new/apps/hinesbatch simulate --cells "$2" --precision "$3" --record 4 \
        --no-split --csv /dev/null --cell-chain "$1" >$o 2>&1
    cat $o >>"$w/sim-$1.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $o
}
for round in 1 2; do
    cell old - $round
    for c in 1 2 4 8 0; do cell new $c $round; done
    for run in "10000 double" "200 double" "10000 float"; do
        set -- $run
        line="round $round, simulate $1 cells, $2, chain:"
        for c in 4 8 16 0; do line="$line $c $(sim $c "$1" "$2")"; done
        echo "$line" | tee -a "$w/summary.txt"
    done
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && cp "$w/summary.txt" "$OUT/call2-summary.txt" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
