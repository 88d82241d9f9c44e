#!/usr/bin/env bash
# run4.sh: fourth device call of this record (H200): NVIDIA OpenCL beside CUDA under AUTO (CA1 cells, 256 / 2,560 / 25,600, both precisions, couplings repeated and shared, two rounds) with the occupancy estimate that leaves unknown registers out; NVIDIA OpenCL's solver tests; AUTO's size-aware cell-group threshold against every strategy forced on the shipped neurons at 24,576 and 32,768 cells in double and 49,152 and 65,536 in float. Output in call4-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-prof/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((560 - ($(date +%s) - t0))); }
w=$OUT/call4 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
B=/tmp/r4/b && rm -rf /tmp/r4 && mkdir -p /tmp/r4
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 >>$B.log 2>&1 || { tail -20 $B.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
H=$B/apps/hinesbatch
for round in 1 2; do
    for cp in repeated shared; do
        extra=()
        [ $cp = shared ] && extra=(--shared-couplings)
        timeout 60 $H bench --backend cuda,opencl --kind hines --strategy auto --morphology nrn__c91662 \
            --systems 256,2560,25600 --precision double,float --serial-max-rows 0 --target-s 0.04 --wall-cap 0.25 \
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
} >"$OUT/call4-ocl.md"
cat "$OUT/call4-ocl.md"
(cd $B && timeout 100 ctest -L opencl -R "occupancy|shared_coup|cell_group|strateg|test_plan|test_hines" -j 4 \
    --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
echo "ctest opencl (NVIDIA, solver tests): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.md"
grep -h "compute capability\|registers of" "$w/ctest-opencl.txt" | head -3 | tee -a "$w/summary.md"
neurons=$(ls data/morphologies/*.swc | xargs -n1 basename | sed 's/\.swc$//' | paste -sd,)
for pt in 32768:double 65536:float 24576:double 49152:float; do
    [ "$(left)" -gt 50 ] || break
    tag=${pt#*:}-${pt%:*}
    timeout $(($(left) - 10)) $H bench --backend cuda --kind hines \
        --strategy auto,per-system,branch-level,cell-group --morphology "$neurons" --systems ${pt%:*} \
        --precision ${pt#*:} --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
        --max-seconds $(($(left) - 20)) --csv "$w/auto-$tag.csv" >/dev/null 2>"$w/auto-$tag.log"
    echo "auto ${pt}: $(tail -1 "$w/auto-$tag.log")" | tee -a "$w/summary.md"
done
# AUTO over the best forced strategy at each point.
for f in "$w"/auto-*.csv; do
    awk -F, 'NR>1 {m=$9" "$6" "$7; if ($4 ~ /^auto/) {a[m]=$11; s[m]=$4} else if (!(m in b) || $11 < b[m]) {b[m]=$11; bs[m]=$4}}
        END {for (m in a) printf "%s rows %s: %s %s, best %s %s, ratio %.2f\n", m, "", s[m], a[m], bs[m], b[m], a[m]/b[m]}' "$f"
done | sort -n | tee "$OUT/call4-auto.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && cp "$w/summary.md" "$OUT/call4-summary.md"
echo "done in $(($(date +%s) - t0)) s"
