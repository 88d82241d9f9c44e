#!/usr/bin/env bash
# run5.sh: fifth device call of this record (H200): the final tree's `ctest -L cuda` and NVIDIA OpenCL's solver tests; NVIDIA OpenCL beside CUDA under AUTO at 2,560 and 25,600 CA1 cells (both precisions, couplings repeated and shared), three processes each, so that the driver's compute cache serves all but the first (OpenCL's registers then assumed, not read). Output in call5-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-prof/run5.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call5 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
B=/tmp/r5/b && rm -rf /tmp/r5 && mkdir -p /tmp/r5
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 >>$B.log 2>&1 || { tail -20 $B.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
H=$B/apps/hinesbatch
for round in 1 2 3; do
    for cp in repeated shared; do
        extra=()
        [ $cp = shared ] && extra=(--shared-couplings)
        timeout 60 $H bench --backend cuda,opencl --kind hines --strategy auto --morphology nrn__c91662 \
            --systems 2560,25600 --precision double,float --serial-max-rows 0 --target-s 0.04 --wall-cap 0.25 \
            --max-seconds 50 --csv "$w/ocl-$cp-r$round.csv" "${extra[@]}" >/dev/null 2>"$w/ocl-$cp-r$round.log"
    done
    echo "round $round after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
done
{
    echo "| couplings | round | precision | cells | CUDA ms | OpenCL ms | OpenCL / CUDA speed | CUDA plan | OpenCL plan |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for f in "$w"/ocl-*-r*.csv; do
        b=${f##*/ocl-}
        b=${b%.csv}
        cp=${b%-r*}
        r=${b##*-r}
        lg=${f%.csv}.log
        awk -F, -v cp=$cp -v r=$r 'NR>1 {t[$1, $6, $7]=$11; k[$6" "$7]=1}
            END {for (x in k) {split(x, a, " "); c=t["cuda", a[1], a[2]]; o=t["opencl", a[1], a[2]];
                 printf "| %s | %s | %s | %s | %s | %s | %.2f |\n", cp, r, a[1], a[2], c, o, c/o}}' "$f" |
            while IFS= read -r line; do
                prec=$(echo "$line" | cut -d'|' -f4 | tr -d ' ')
                n=$(echo "$line" | cut -d'|' -f5 | tr -d ' ')
                pc=$(grep -E "bench: cuda .* $prec $n x" "$lg" | sed -E 's/.*\((.*)\)/\1/' | head -1)
                po=$(grep -E "bench: opencl .* $prec $n x" "$lg" | sed -E 's/.*\((.*)\)/\1/' | head -1)
                echo "$line $pc | $po |"
            done
    done | sort -t'|' -k2,2 -k4,4 -k5,5n -k3,3
} >"$OUT/call5-ocl.md"
cat "$OUT/call5-ocl.md"
(cd $B && timeout 170 ctest -L cuda -j 6 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/summary.md"
(cd $B && timeout 100 ctest -L opencl -R "occupancy|shared_coup|cell_group|strateg|test_plan|test_hines" -j 4 \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, solver tests): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.md"
grep -h "compute capability\|registers of" "$w/ctest-opencl.txt" | head -3 | tee -a "$w/summary.md"
grep -h "FAIL" "$w"/ctest-*.txt | head -5
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call5.tar.gz" -C "$OUT" call5 && cp "$w/summary.md" "$OUT/call5-summary.md"
echo "done in $(($(date +%s) - t0)) s"
