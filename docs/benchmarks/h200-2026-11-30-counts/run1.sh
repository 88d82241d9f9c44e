#!/usr/bin/env bash
# run1.sh: first device call of this record (H200): a CUDA build with -lineinfo; `simulate` of 10,000 and 200 CA1 cells in double (AUTO); Nsight Compute's per-instruction counts (SourceCounters: instructions executed and warp stall samples per SASS line) of the on-chip epoch at 10,000 cells, exported as CSV; the same for the cell-group solver at 256 CA1 cells. Output in call1-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-counts/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >"$OUT/call1-gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
b=/tmp/r1/b
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_CUDA_FLAGS=-lineinfo >"$OUT/call1-build.log" 2>&1 &&
    cmake --build $b -j 16 --target hinesbatch_cli >>"$OUT/call1-build.log" 2>&1 || { tail -30 "$OUT/call1-build.log"; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
B=$b/apps/hinesbatch
for cells in 10000 200; do
    HINESBATCH_BACKEND=cuda timeout 60 $B simulate --cells $cells --precision double --record 4 --no-split --csv /dev/null \
        >/tmp/r1/sim-$cells.txt 2>&1
    cat /tmp/r1/sim-$cells.txt >>"$OUT/call1-sim.txt"
    grep -E "^performance|engine" /tmp/r1/sim-$cells.txt | cut -c1-220
done
export PATH=$PATH:/usr/local/cuda/bin
timeout 200 ncu --clock-control none -k regex:epoch --launch-count 1 --section SourceCounters --section WarpStateStats \
    --section InstructionStats --import-source no -o /tmp/r1/epoch -f \
    env HINESBATCH_BACKEND=cuda $B simulate --cells 10000 --precision double --tstop 0.5 --record 4 --no-split --csv /dev/null \
    >"$OUT/call1-ncu-epoch.log" 2>&1
echo "ncu epoch: status $?"
ncu --import /tmp/r1/epoch.ncu-rep --page source --csv --print-source sass >"$OUT/call1-epoch-sass.csv" 2>&1
ncu --import /tmp/r1/epoch.ncu-rep --page details --csv >"$OUT/call1-epoch-details.csv" 2>&1
gzip -9 "$OUT/call1-epoch-sass.csv"
echo "bench cell-group:"
$B bench --help 2>&1 | head -40 >/dev/null
timeout 120 ncu --clock-control none -k regex:cell --launch-count 1 --launch-skip 3 --section SourceCounters --section WarpStateStats \
    --import-source no -o /tmp/r1/cell -f \
    env HINESBATCH_BACKEND=cuda $B bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
    --systems 256 --precision double --max-reps 8 >"$OUT/call1-ncu-cell.log" 2>&1
echo "ncu cell: status $?"
ncu --import /tmp/r1/cell.ncu-rep --page source --csv --print-source sass 2>&1 | gzip -9 >"$OUT/call1-cell-sass.csv.gz"
cat "$OUT"/call1-ncu-*.log | tail -20
echo "done in $(($(date +%s) - t0)) s"
