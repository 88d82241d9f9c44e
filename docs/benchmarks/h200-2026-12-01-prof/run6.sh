#!/usr/bin/env bash
# run6.sh: sixth device call of this record (H200): the solver's back-substitution walks reading a chain's node indices four ahead (call6-ahead.diff) against one ahead (the diff reversed on a copy of the tree), turn about, two rounds: AUTO's plan at 256 / 2,560 / 25,600 CA1 cells, both precisions, couplings repeated and shared, CUDA and NVIDIA OpenCL; CUDA's cell-group tests on it. Output in call6-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-prof/run6.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((300 - ($(date +%s) - t0))); }
D=docs/benchmarks/h200-2026-12-01-prof
w=$OUT/call6 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mkdir -p /tmp/icd && ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
R=/tmp/r6 && rm -rf $R && mkdir -p $R/old
tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C $R/old
(cd $R/old && patch -R -p1 -s <"$OLDPWD/$D/call6-ahead.diff") || { echo "patch failed"; exit 1; }
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
} >"$OUT/call6-turn.md"
cat "$OUT/call6-turn.md"
B=$R/new
(cd $B && timeout 60 ctest -L cuda -R "cell_group|shared_coup" -j 2 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda (cell-group tests): $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt")" | tee -a "$w/summary.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call6.tar.gz" -C "$OUT" call6 && cp "$w/summary.md" "$OUT/call6-summary.md"
echo "done in $(($(date +%s) - t0)) s"
