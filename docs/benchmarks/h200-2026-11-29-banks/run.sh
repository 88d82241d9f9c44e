#!/usr/bin/env bash
# run.sh: one device call of this record (H200): this tree ("new") and the tree before ("old": pcrmap.diff and fork.diff reversed) built alike; turn about, two rounds: the resident Thomas solver at the points below, the cell-group Hines solver on the CA1 cell, `hinesbatch simulate` of 200 and 10,000 CA1 cells; Nsight Compute's shared-memory counters of both resident kernels; `ctest -L cuda` on new when TESTS=1; the double long half on new when time is left. Everything comes back in $TAG.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR TAG=call1 TESTS=1 bash docs/benchmarks/h200-2026-11-29-banks/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}" "${TAG:?TAG: this call}"
here=docs/benchmarks/h200-2026-11-29-banks
w=$OUT/$TAG
mkdir -p "$w"
t0=$(date +%s)
left() { echo $((570 - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$w/gpu.txt"

# build_tree NAME [reverse]: this tree, or with this record's diffs
# reversed, built (Release, CUDA only) in /tmp/hb-NAME; kept while warm.
build_tree() {
    local d=/tmp/hb-$1
    [ -x "$d/b/apps/hinesbatch" ] && return 0
    rm -rf "$d" && mkdir -p "$d"
    tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$d"
    (cd "$d" && if [ -n "${2:-}" ]; then
        patch -s -R -p1 <"$here/pcrmap.diff" && patch -s -R -p1 <"$here/fork.diff" || exit 1
    fi &&
        cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
            -DHINESBATCH_WITH_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 &&
        cmake --build b -j 8 --target hinesbatch_cli >>b.log 2>&1)
}
build_tree new & p1=$!
build_tree old reverse & p2=$!
wait $p1 $p2
for k in new old; do
    echo "$k: $(test -x /tmp/hb-$k/b/apps/hinesbatch && echo built || (echo FAILED; tail -5 /tmp/hb-$k/b.log))"
done
echo "builds: $(($(date +%s) - t0)) s"

q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 40)
for round in 1 2; do
    for k in new old; do
        B=/tmp/hb-$k/b/apps/hinesbatch
        [ "$(left)" -gt 200 ] || { echo "$k round $round: skipped, $(left) s left"; continue; }
        s=$(date +%s)
        timeout 60 $B bench --suite thomas --backend cuda --strategy auto --systems 2560,25600,256000 \
            --rows 256,512 --precision double,float "${q[@]}" --csv "$w/$k-r$round-thomas.csv" \
            >/dev/null 2>"$w/$k-r$round-thomas.log"
        echo "$k round $round thomas: status $?"
        timeout 60 $B bench --suite thomas --backend cuda --strategy auto --systems 20,2000 \
            --rows 2048,8192 --precision double "${q[@]}" --csv "$w/$k-r$round-thomas-long.csv" \
            >/dev/null 2>"$w/$k-r$round-thomas-long.log"
        echo "$k round $round thomas-long: status $?"
        timeout 60 $B bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
            --systems 256,2560,25600 --precision double,float "${q[@]}" --csv "$w/$k-r$round-cell.csv" \
            >/dev/null 2>"$w/$k-r$round-cell.log"
        echo "$k round $round cell-group: status $?"
        for n in 200 10000; do
            HINESBATCH_BACKEND=cuda timeout 60 $B simulate --cells $n --engine cells --precision double \
                --record 4 --no-split --csv /dev/null >"$w/$k-r$round-sim$n.out" 2>&1
            echo "$k round $round sim $n: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/$k-r$round-sim$n.out")"
        done
        echo "$k round $round: $(($(date +%s) - s)) s"
    done
done

# Shared-memory wavefronts and bank conflicts of the resident kernel at
# 256,000 x 512 double, and of the cell-group kernel at 256 CA1 cells.
if command -v ncu >/dev/null && [ "$(left)" -gt 200 ]; then
    m=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
    for k in new old; do
        B=/tmp/hb-$k/b/apps/hinesbatch
        timeout 60 ncu --clock-control none -k regex:coop_local --launch-skip 2 --launch-count 1 --metrics $m \
            $B bench --backend cuda --kind thomas --strategy cooperative --systems 256000 --rows 512 \
            --precision double --serial-max-rows 0 --max-reps 4 --target-s 0.01 --csv /dev/null \
            >"$w/ncu-$k-thomas.txt" 2>&1
        echo "ncu $k thomas: status $?"
        timeout 60 ncu --clock-control none -k regex:hines_cell --launch-skip 2 --launch-count 1 \
            --metrics $m --section WarpStateStats \
            $B bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
            --systems 256 --precision double --serial-max-rows 0 --max-reps 4 --target-s 0.01 --csv /dev/null \
            >"$w/ncu-$k-cell.txt" 2>&1
        echo "ncu $k cell: status $?"
    done
fi
if [ "${TESTS:-0}" = 1 ] && [ "$(left)" -gt 130 ]; then
    HB_GPU_TEST_LABELS=cuda HB_CALL_S=150 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
    echo "gpu.sh --tests (cuda): status $?"
    grep -E "ctest|build:" "$OUT/t/summary.txt"
    cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
    rm -rf "$OUT/t"
fi
if [ "$(left)" -gt 110 ]; then
    s=$(date +%s)
    timeout $(($(left) - 10)) /tmp/hb-new/b/apps/hinesbatch bench --suite thomas --backend cuda --strategy auto \
        --systems 20,200,2000,20000 --rows 1024,2048,4096,8192 --serial-max-rows 0 --target-s 0.1 \
        --wall-cap 0.6 --max-seconds 100 --precision double --csv "$w/new-double-long.csv" \
        >/dev/null 2>"$w/new-double-long.log"
    echo "new double long half: status $?, $(($(date +%s) - s)) s"
else
    echo "new double long half: skipped, $(left) s left"
fi
tar -czf "$OUT/$TAG.tar.gz" -C "$OUT" "$TAG" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
