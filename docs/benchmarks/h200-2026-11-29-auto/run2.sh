#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): `ci/gpu.sh --tests` (cuda label) on this tree; the resident Thomas kernel with the row mapping by float reciprocal (new) and by division (old: divmap.diff reversed), built alike, two rounds turn about, and Nsight Compute of new at 256,000 x 512 double; `hinesbatch simulate` of 10,000 and 200 CA1 cells under AUTO and with the epoch forced (96 work-items, stage none: AUTO's launch before stage vx; 64, vx; 64, none), two rounds; the seeds' float grid with AUTO and per-system. Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-auto/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-auto
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-555}
left() { echo $((limit - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
# old: this tree with divmap.diff reversed, built (Release, CUDA only) beside the tests' build.
(d=/tmp/hb-old && rm -rf $d && mkdir -p $d && tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $d &&
    cd $d && patch -s -R -p1 <"$here/divmap.diff" &&
    cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
        -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 && cmake --build b -j 6 --target hinesbatch_cli >>b.log 2>&1) &
pold=$!
HB_GPU_TEST_LABELS=cuda HB_CALL_S=170 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
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
        [ "$(left)" -gt 300 ] || { echo "$k round $round: skipped"; continue; }
        s=$(date +%s)
        timeout 45 ${bin[$k]} bench --suite thomas --backend cuda --strategy auto --systems 256,2560,25600,256000 \
            --rows 512 --precision double,float "${q[@]}" --csv "$w/$k-r$round-512.csv" >/dev/null 2>"$w/$k-r$round-512.log"
        timeout 30 ${bin[$k]} bench --suite thomas --backend cuda --strategy auto --systems 20,2000 --rows 8192 \
            --precision double,float "${q[@]}" --csv "$w/$k-r$round-8192.csv" >/dev/null 2>"$w/$k-r$round-8192.log"
        echo "$k round $round: $(($(date +%s) - s)) s"
    done
done
if command -v ncu >/dev/null && [ "$(left)" -gt 280 ]; then
    timeout 40 ncu --clock-control none -k regex:coop_local --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy \
        --metrics smsp__inst_executed.sum,dram__bytes.sum $B bench --backend cuda --kind thomas \
        --strategy cooperative --systems 256000 --rows 512 --precision double --serial-max-rows 0 --max-reps 4 \
        --target-s 0.01 --csv /dev/null >"$w/ncu-new-thomas.txt" 2>&1
    echo "ncu new: status $?"
fi
sim() { # sim TAG CELLS PRECISION [ENV...] -- [ARGS...]
    local tag=$1 n=$2 p=$3
    shift 3
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env HINESBATCH_BACKEND=cuda "${envs[@]}" timeout 60 $B simulate --cells "$n" --engine cells --precision "$p" \
        --record 4 --no-split --csv /dev/null "$@" >"$w/sim-$tag.out" 2>&1
    echo "sim $tag: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/sim-$tag.out") ($(grep -o 'one work-group of [0-9]* work-items[^)]*' "$w/sim-$tag.out" | head -1))"
}
for round in 1 2; do
    [ "$(left)" -gt 200 ] || break
    sim r$round-10000-auto 10000 double --
    sim r$round-10000-96none 10000 double HINESBATCH_EPOCH_STAGE=none -- --group-size 96
    sim r$round-10000-64vx 10000 double HINESBATCH_EPOCH_STAGE=vx -- --group-size 64
    sim r$round-10000-64none 10000 double HINESBATCH_EPOCH_STAGE=none -- --group-size 64
    sim r$round-1000-auto 1000 double --
    sim r$round-1000-96none 1000 double HINESBATCH_EPOCH_STAGE=none -- --group-size 96
    sim r$round-200-auto 200 double --
    sim r$round-10000-float-auto 10000 float --
done
grid=(--target-s 0.1 --wall-cap 0.6)
run() { # run NAME SECONDS ARGS...
    local name=$1 need=$2
    shift 2
    [ "$(left)" -gt $((need / 2)) ] || { echo "$name: skipped, $(left) s left"; return; }
    local s=$(date +%s) cap=$need
    [ "$cap" -lt "$(($(left) - 8))" ] || cap=$(($(left) - 8))
    timeout $((cap + 5)) $B bench --suite thomas --serial-max-rows 0 "$@" "${grid[@]}" \
        --max-seconds "$cap" --csv "$w/$name.csv" >/dev/null 2>"$w/$name.log"
    echo "$name: status $?, $(($(date +%s) - s)) s"
}
run grid-float-short 90 --backend cuda --strategy auto,per-system --systems 256,2560,25600,256000 \
    --rows 64,128,256,512 --precision float
run grid-float-long 130 --backend cuda --strategy auto,per-system --systems 20,200,2000,20000 \
    --rows 1024,2048,4096,8192 --precision float
python3 apps/grid_table.py "$w"/grid-float-*.csv >"$OUT/call2-grid.md" 2>&1
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
