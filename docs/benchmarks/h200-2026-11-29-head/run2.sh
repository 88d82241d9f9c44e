#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): this tree ("new": the cell-group solver without its schedule staged reads l from global memory, three local arrays) and the tree before ("old": lglobal.diff reversed) built alike; `ci/gpu.sh --tests` (cuda label: test_cell_group and nmodl.cuda with cashells.mod among them) on new; the cell-group solver on the CA1 cell (728 rows) at 256 to 25,600 cells, both precisions, two rounds turn about, forced and under AUTO; the cell-group tests on NVIDIA's OpenCL with new. Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-head/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-head
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-565}
left() { echo $((limit - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
(d=/tmp/hb-old && rm -rf $d && mkdir -p $d && tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $d &&
    cd $d && patch -s -R -p1 <"$here/lglobal.diff" &&
    cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
        -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 && cmake --build b -j 6 --target hinesbatch_cli >>b.log 2>&1) &
pold=$!
HB_GPU_TEST_LABELS=cuda HB_CALL_S=200 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:|Failed|Timeout" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-cuda.log 2>/dev/null
rm -rf "$OUT/t"
wait $pold
echo "old build: $(test -x /tmp/hb-old/b/apps/hinesbatch && echo ok || (echo FAILED; tail -5 /tmp/hb-old/b.log)), $(($(date +%s) - t0)) s"
B=build-gpu/apps/hinesbatch
declare -A bin=([new]=$B [old]=/tmp/hb-old/b/apps/hinesbatch)
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
for round in 1 2; do
    for k in new old; do
        [ "$(left)" -gt 200 ] || { echo "$k round $round: skipped"; continue; }
        s=$(date +%s)
        timeout 60 ${bin[$k]} bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
            --systems 256,1024,2560,25600 --precision double,float "${q[@]}" --csv "$w/$k-r$round-cell.csv" \
            >/dev/null 2>"$w/$k-r$round-cell.log"
        timeout 60 ${bin[$k]} bench --backend cuda --kind hines --strategy auto --morphology nrn__c91662 \
            --systems 2560,25600 --precision double "${q[@]}" --csv "$w/$k-r$round-auto.csv" \
            >/dev/null 2>"$w/$k-r$round-auto.log"
        echo "$k round $round: $(($(date +%s) - s)) s; $(grep -o 'cuda .*median [0-9.]* ms' "$w/$k-r$round-cell.log" | sed 's/.*hines \(double\|float\) \([0-9]*\) x.*median \([0-9.]*\) ms/\1 \2: \3/' | tr '\n' ';')"
    done
done
# NVIDIA's OpenCL: the cell-group tests with new's kernel.
lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd
if [ "$(left)" -gt 60 ]; then
    (export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
        timeout $(($(left) - 20)) ctest --test-dir build-gpu -L '^opencl$' -R 'cell_group|strategies' -j 2 \
            >"$w/ctest-opencl-cell.log" 2>&1
        echo "ctest opencl cell_group, strategies: status $?, $(grep -E 'tests passed|tests failed' "$w/ctest-opencl-cell.log")")
fi
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
