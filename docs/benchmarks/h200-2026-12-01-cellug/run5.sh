#!/usr/bin/env bash
# run5.sh: fifth device call of this record (H200): AUTO against every Hines strategy forced on each shipped neuron (copies of one cell) at 4,096, 32,768 and 65,536 cells in double, and 32,768 and 65,536 in float: the new rule away from the CA1 cell it was measured on. Output in call5-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-cellug/run5.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call5 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=/tmp/r5 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
neurons=$(ls data/morphologies/*.swc | xargs -n1 basename | sed 's/\.swc$//' | paste -sd,)
run() { # run TAG SYSTEMS PRECISION
    timeout 230 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy auto,per-system,branch-level,cell-group \
        --morphology "$neurons" --systems $2 --precision $3 --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
        --max-seconds 210 --csv "$w/$1.csv" >/dev/null 2>"$w/$1.log"
    echo "$1: rc $?, $(tail -1 "$w/$1.log")" | tee -a "$w/summary.md"
    echo "after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
}
run double 4096,32768,65536 double
run float 32768,65536 float
# AUTO over the best forced strategy at each point (morphology from the log's point names).
for f in double float; do
    awk -F, 'NR>1 && $1=="cuda" {print $7, $9, $4, $11}' "$w/$f.csv" >"$w/$f.txt"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call5.tar.gz" -C "$OUT" call5 && cp "$w/summary.md" "$OUT/call5-summary.md"
echo "done in $(($(date +%s) - t0)) s"
