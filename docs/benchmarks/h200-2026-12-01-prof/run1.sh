#!/usr/bin/env bash
# run1.sh: first device call of this record (H200): Nsight Compute's source counters (SASS stall samples) and warp states of the cell-group kernel with shared couplings at 256 and 2,560 CA1 cells (double) and of the staged kernel at 256; NVIDIA OpenCL beside CUDA at every group size (cell-group, shared couplings, 256 / 2,560 / 25,600 cells, both precisions); what NVIDIA's OpenCL reports of the kernels (nvprobe.c). Output in call1-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-prof/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
D=docs/benchmarks/h200-2026-12-01-prof
w=$OUT/call1 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r1 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_CUDA_FLAGS=-lineinfo >$R/build.log 2>&1 &&
    cmake --build $B -j 16 >>$R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
export OCL_ICD_VENDORS=/tmp/icd
gcc -O1 -o $R/nvprobe $D/nvprobe.c $B/backend_opencl/hb_cl_sources.c -lOpenCL &&
    (cd "$w" && timeout 60 $R/nvprobe >nvprobe.txt 2>&1)
echo "nvprobe: rc $?" | tee -a "$w/summary.md"
grep -E "attr 0x400[0-3]|hb_hines|Used" "$w/nvprobe.txt" | head -20 | tee -a "$w/summary.md"
H=$B/apps/hinesbatch
sec=(--section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy
    --section SpeedOfLight --section SchedulerStats)
prof() { # prof NAME SYSTEMS KERNELREGEX [bench args]
    local name=$1 n=$2 k=$3
    shift 3
    timeout 90 ncu --clock-control none -k "regex:$k" --launch-skip 3 --launch-count 1 "${sec[@]}" \
        -o "$w/ncu-$name" $H bench --backend cuda --kind hines --strategy cell-group \
        --morphology nrn__c91662 --systems "$n" --precision double --serial-max-rows 0 \
        --max-reps 6 --target-s 0.01 --csv /dev/null "$@" >"$w/ncu-$name.log" 2>&1
    echo "ncu $name: rc $?, $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
    ncu -i "$w/ncu-$name.ncu-rep" --page details >"$w/details-$name.txt" 2>&1
    ncu -i "$w/ncu-$name.ncu-rep" --page source --print-source sass --csv >"$w/sass-$name.csv" 2>&1 ||
        ncu -i "$w/ncu-$name.ncu-rep" --page source --csv >"$w/sass-$name.csv" 2>&1
    echo "  sass rows: $(wc -l <"$w/sass-$name.csv")" | tee -a "$w/summary.md"
    grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Block Limit" \
        "$w/details-$name.txt" | head -12 | tee -a "$w/summary.md"
}
if command -v ncu >/dev/null; then
    prof ug256 256 hines_cell_ug --shared-couplings
    prof ug2560 2560 hines_cell_ug --shared-couplings
    prof st256 256 "hines_cell$"
fi
export HINESBATCH_OPENCL_PLATFORM=NVIDIA
for round in 1 2; do
    for g in 0 32 64 128; do
        timeout 100 $H bench --backend cuda,opencl --kind hines --strategy cell-group --shared-couplings \
            --morphology nrn__c91662 --systems 256,2560,25600 --precision double,float --group-size $g \
            --serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 80 \
            --csv "$w/ocl-r$round-g$g.csv" >/dev/null 2>"$w/ocl-r$round-g$g.log"
        echo "ocl round $round group $g: rc $?, $(($(date +%s) - t0)) s" >>"$w/summary.md"
    done
done
{
    echo "| round | group | backend | precision | 256 | 2,560 | 25,600 |"
    echo "|---|---|---|---|---|---|---|"
    for f in "$w"/ocl-r*-g*.csv; do
        b=${f##*/ocl-r}
        r=${b%%-*}
        g=${b#*-g}
        g=${g%.csv}
        awk -F, -v r=$r -v g=$g 'NR>1 {k=$1" "$6; t[k, $7]=$11; keys[k]=1}
            END {for (k in keys) {split(k, a, " "); printf "| %s | %s | %s | %s | %s | %s | %s |\n", r, g, a[1], a[2], t[k, 256], t[k, 2560], t[k, 25600]}}' "$f"
    done | sort
} >"$OUT/call1-ocl.md"
cat "$OUT/call1-ocl.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && cp "$w/summary.md" "$OUT/call1-summary.md"
echo "done in $(($(date +%s) - t0)) s"
