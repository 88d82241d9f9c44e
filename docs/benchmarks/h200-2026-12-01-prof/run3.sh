#!/usr/bin/env bash
# run3.sh: third device call of this record (H200): the cell-group kernels' staging by group copies (cp.async under CUDA, loops on OpenCL) against the loops before (call3-staging.diff reversed on a copy of the tree), turn about, two rounds: AUTO's plan at 256 / 2,560 / 25,600 CA1 cells, both precisions, couplings repeated and shared, CUDA and NVIDIA OpenCL (whose plan now has the occupancy estimate); `ctest -L cuda` and NVIDIA OpenCL's solver tests; AUTO against every strategy forced on the shipped neurons at 32,768 cells in double and 65,536 in float, where the last record had AUTO 1.14-1.31x off the best. Output in call3-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-prof/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((560 - ($(date +%s) - t0))); }
D=docs/benchmarks/h200-2026-12-01-prof
w=$OUT/call3 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r3 && rm -rf $R && mkdir -p $R/old
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C $R/old
(cd $R/old && patch -R -p1 -s <"$OLDPWD/$D/call3-staging.diff") || { echo "patch failed"; exit 1; }
build() { # build SRC DIR TARGETS...
    local src=$1 dir=$2
    shift 2
    cmake -S $src -B $dir -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
        -DCMAKE_CUDA_ARCHITECTURES="$arch" >$dir.log 2>&1 && cmake --build $dir -j 16 "$@" >>$dir.log 2>&1 ||
        { tail -20 $dir.log; exit 1; }
}
build . $R/new
build $R/old $R/old-b --target hinesbatch_cli
echo "builds after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
turn() { # turn TAG BINARY [--shared-couplings]
    local tag=$1 bin=$2
    shift 2
    timeout 60 $bin bench --backend cuda,opencl --kind hines --strategy auto --morphology nrn__c91662 \
        --systems 256,2560,25600 --precision double,float --serial-max-rows 0 --target-s 0.04 --wall-cap 0.25 \
        --max-seconds 50 --csv "$w/$tag.csv" "$@" >/dev/null 2>"$w/$tag.log"
}
for round in 1 2; do
    turn old-r$round $R/old-b/apps/hinesbatch
    turn new-r$round $R/new/apps/hinesbatch
    turn old-sh-r$round $R/old-b/apps/hinesbatch --shared-couplings
    turn new-sh-r$round $R/new/apps/hinesbatch --shared-couplings
    echo "round $round after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
done
{
    echo "| tree | couplings | round | backend | precision | 256 | 2,560 | 25,600 | plan at 25,600 |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for f in "$w"/old-r*.csv "$w"/new-r*.csv "$w"/old-sh-r*.csv "$w"/new-sh-r*.csv; do
        b=${f##*/}
        b=${b%.csv}
        tree=${b%%-*}
        r=${b##*-r}
        case $b in *-sh-*) cp=shared ;; *) cp=repeated ;; esac
        awk -F, -v tree=$tree -v r=$r -v cp=$cp 'NR>1 {k=$1" "$6; t[k, $7]=$11; s[k]=$4; keys[k]=1}
            END {for (k in keys) {split(k, a, " "); printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", tree, cp, r, a[1], a[2], t[k, 256], t[k, 2560], t[k, 25600], s[k]}}' "$f"
    done | sort -t'|' -k3,3 -k5,5 -k6,6 -k2,2 -k4,4
} >"$OUT/call3-turn.md"
cat "$OUT/call3-turn.md"
grep -h "work-items per cell" "$w"/new-sh-r1.log | head -12 >"$w/plans.txt"
B=$R/new
if [ "$(left)" -gt 200 ]; then
    (cd $B && timeout 150 ctest -L cuda -j 6 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
    echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/summary.md"
fi
if [ "$(left)" -gt 100 ]; then
    (cd $B && timeout 90 ctest -L opencl -R "occupancy|shared_coup|cell_group|strateg|test_plan|test_hines" -j 4 \
        --output-on-failure >"$w/ctest-opencl.txt" 2>&1)
    echo "ctest opencl (NVIDIA, solver tests): $(grep -E 'tests passed|tests failed' "$w/ctest-opencl.txt")" | tee -a "$w/summary.md"
    grep -h "compute capability" "$w/ctest-opencl.txt" | head -2 | tee -a "$w/summary.md"
fi
grep -h "FAIL" "$w"/ctest-*.txt | head -5
neurons=$(ls data/morphologies/*.swc | xargs -n1 basename | sed 's/\.swc$//' | paste -sd,)
for pt in 32768:double 65536:float; do
    [ "$(left)" -gt 50 ] || break
    timeout $(($(left) - 10)) $B/apps/hinesbatch bench --backend cuda --kind hines \
        --strategy auto,per-system,branch-level,cell-group --morphology "$neurons" --systems ${pt%:*} \
        --precision ${pt#*:} --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
        --max-seconds $(($(left) - 20)) --csv "$w/auto-${pt#*:}.csv" >/dev/null 2>"$w/auto-${pt#*:}.log"
    echo "auto ${pt}: $(tail -1 "$w/auto-${pt#*:}.log")" | tee -a "$w/summary.md"
    awk -F, 'NR>1 {printf "%s rows %s %s: %s ms\n", $9, $6, $4, $11}' "$w/auto-${pt#*:}.csv" >>"$w/summary.md"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && cp "$w/summary.md" "$OUT/call3-summary.md"
echo "done in $(($(date +%s) - t0)) s"
