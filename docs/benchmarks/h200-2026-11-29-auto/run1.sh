#!/usr/bin/env bash
# run1.sh: the first device call of this record (H200): `ci/gpu.sh --tests` (cuda and opencl labels) on this tree; Nsight Compute's stall, occupancy and memory sections of the resident Thomas kernel (256,000 x 512 double) and of the on-chip simulation's epoch kernel (10,000 CA1 cells, double); the seeds' double grid with AUTO and per-system forced beside both cuSPARSE routines; NVIDIA OpenCL beside CUDA at six Thomas points. Everything comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-auto/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call1
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-550}
left() { echo $((limit - ($(date +%s) - t0))); }
HB_GPU_TEST_LABELS="cuda opencl" HB_CALL_S=230 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda, opencl): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:|Failed|Timeout" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-cuda.log logs/ctest-opencl.log 2>/dev/null
rm -rf "$OUT/t"
[ -d build-gpu/icd ] && export OCL_ICD_VENDORS=$PWD/build-gpu/icd
export HINESBATCH_OPENCL_PLATFORM=NVIDIA
B=build-gpu/apps/hinesbatch
sec=(--section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats
    --section MemoryWorkloadAnalysis --section SpeedOfLight)
if command -v ncu >/dev/null; then
    timeout 60 ncu --clock-control none -k regex:coop_local --launch-skip 2 --launch-count 1 "${sec[@]}" \
        $B bench --backend cuda --kind thomas --strategy cooperative --systems 256000 --rows 512 \
        --precision double --serial-max-rows 0 --max-reps 4 --target-s 0.01 --csv /dev/null \
        >"$w/ncu-thomas.txt" 2>&1
    echo "ncu thomas: status $?, $(($(date +%s) - t0)) s"
    timeout 90 ncu --clock-control none -k regex:epoch --launch-skip 1 --launch-count 1 "${sec[@]}" \
        env HINESBATCH_BACKEND=cuda $B simulate --cells 10000 --tstop 2 --engine cells --precision double \
        --record 4 --no-split --csv /dev/null >"$w/ncu-epoch.txt" 2>&1
    echo "ncu epoch: status $?, $(($(date +%s) - t0)) s"
fi
grid=(--target-s 0.1 --wall-cap 0.6)
long=(--systems 20,200,2000,20000 --rows 1024,2048,4096,8192)
short=(--systems 256,2560,25600,256000 --rows 64,128,256,512)
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
run ocl 70 --backend cuda,opencl --strategy auto --systems 256,2560,25600,256000 --rows 512 \
    --precision double,float
run grid-double-short 120 --backend cuda --strategy auto,per-system "${short[@]}" --precision double
run grid-double-long 150 --backend cuda --strategy auto,per-system "${long[@]}" --precision double
python3 apps/grid_table.py "$w"/grid-double-*.csv >"$OUT/call1-grid.md" 2>&1
python3 apps/grid_table.py "$w"/ocl.csv --backend cuda >"$OUT/call1-ocl.md" 2>&1
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
