#!/usr/bin/env bash
# run4.sh: fourth device call of this record (H200): two sub-chunks per lane from 16 rows per lane (two independent chains of reciprocals): registers and spills, `ctest -L cuda`, then 256..256,000 systems of 512 rows in double and float and 20..20,000 x 1,024 floats with the register kernel forced on (HINESBATCH_COOP_WARP=1, warp1-*) and off (=0, warp0-*), each bench call timing cuSPARSE's two routines beside ours. Output in call4/ (call4.tar.gz) and call4.md.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-02-warp/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((440 - ($(date +%s) - t0))); }
R=docs/benchmarks/h200-2026-12-02-warp
w=$OUT/call4 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
B=/tmp/r4/b && rm -rf /tmp/r4 && mkdir -p /tmp/r4
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 >>$B.log 2>&1 || { tail -30 $B.log; cp $B.log "$w/"; tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4; exit 1; }
echo "build after $(($(date +%s) - t0)) s, $(grep -c -i 'warning' $B.log) warning lines" | tee -a "$w/summary.md"
lib=$(find $B -name 'libhinesbatch*.a' | head -1)
cuobjdump -res-usage "$lib" 2>/dev/null | grep -A1 "thomas_coop_warp" | grep -o "Function [^ ]*\|REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | paste - - - - >"$w/regs.txt"
cat "$w/regs.txt" | c++filt | tee -a "$w/summary.md"
(cd $B && timeout 150 ctest -L cuda -j 4 --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
grep -A3 "Failed\|\*\*\*" "$w/ctest-cuda.txt" | head -40 | tee -a "$w/summary.md"
H=$B/apps/hinesbatch
bench() { # tag warp precision [grid]
    [ "$(left)" -gt 30 ] || { echo "$1: skipped, no time" | tee -a "$w/summary.md"; return; }
    local cap=30
    [ $cap -lt $(($(left) - 30)) ] || cap=$(($(left) - 30))
    local grid=(--systems 256,2560,25600,256000 --rows 512)
    [ "${4:-}" = long ] && grid=(--systems 20,200,2000,20000 --rows 1024)
    local env=(HINESBATCH_COOP_WARP=$2)
    [ "$2" = rule ] && env=(HB_SIDE=rule)
    env "${env[@]}" timeout $((cap + 10)) $H bench --suite thomas --backend cuda --strategy auto \
        --serial-max-rows 0 "${grid[@]}" --precision $3 \
        --target-s 0.1 --wall-cap 0.6 --max-seconds $cap --csv "$w/$1.csv" >/dev/null 2>"$w/$1.log"
    echo "$1: status $?, $(grep '^bench: [0-9]* rows' "$w/$1.log") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
}
bench warp1-double 1 double
bench warp0-double 0 double
bench warp1-float 1 float
bench warp0-float 0 float
bench warp1-float1024 1 float long
bench warp0-float1024 0 float long
python3 $R/table.py "$w" warp1 | tee "$OUT/call4.md"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && cp "$w/summary.md" "$OUT/call4-summary.md"
echo "done in $(($(date +%s) - t0)) s"
