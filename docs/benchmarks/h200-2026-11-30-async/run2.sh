#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): as run1.sh, for the kernel that keeps each work-item's chunk in registers (HB_COOPL_REGS, chunks of at most 9 rows) against the chunk walked in local memory (HINESBATCH_COOP_REGS=0): the tests on CUDA (test_coop_local runs every case with both), three rounds turn about at 256,000 x 512 double, one round over a spread of the seeds' grid, Nsight Compute of both. Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-async/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-540}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$w/build.log" 2>&1 &&
    cmake --build b -j 16 --target hinesbatch_cli test_coop_local test_coop test_tridiag test_errors \
        test_cuda_plans test_strategies test_coop_span test_env >>"$w/build.log" 2>&1
echo "build: $? after $(($(date +%s) - t0)) s"
tail -3 "$w/build.log"
(cd b && timeout 240 ctest -L cuda -R 'test_(coop_local|coop|tridiag|errors|cuda_plans|strategies|coop_span|env)\.' \
    --output-on-failure >"$w/ctest.txt" 2>&1)
grep -E "tests passed|Failed|\*\*\*|rows copied" "$w/ctest.txt" | head -20
B=b/apps/hinesbatch
bench() { # bench TAG ASYNC SYSTEMS ROWS PRECISION
    [ "$(left)" -gt 40 ] || { echo "$1: skipped"; return; }
    HINESBATCH_COOP_REGS=$2 timeout 60 $B bench --backend cuda --kind thomas --systems "$3" --rows "$4" \
        --precision "$5" --csv "$w/$1.csv" >"$w/$1.log" 2>&1
    awk -F, 'NR>1 && $1=="cuda" {printf "%s ms, %s of copy, ratio %s, %s", $11, $16, $18, $5}' "$w/$1.csv"
}
for round in 1 2 3; do
    for a in 1 0; do
        echo "round $round regs=$a 256000x512 double: $(bench r$round-a$a $a 256000 512 double)"
    done
done
for pt in 256000:64:double 25600:512:double 2560:512:double 256:512:double 256000:512:float \
    25600:64:double 2000:1024:double 200:8192:double 20000:2048:double 2560:512:float; do
    IFS=: read -r s r p <<<"$pt"
    for a in 1 0; do
        echo "$s x $r $p regs=$a: $(bench g-$s-$r-$p-a$a $a $s $r $p)"
    done
done
grep -h "describe\|layout=" "$w"/r1-a1.log "$w"/r1-a0.log | head -4
if command -v ncu >/dev/null && [ "$(left)" -gt 120 ]; then
    for a in 1 0; do
        HINESBATCH_COOP_REGS=$a timeout 80 ncu --kernel-name regex:hb_thomas_coop --launch-skip 3 --launch-count 1 \
            --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
            $B bench --backend cuda --kind thomas --systems 256000 --rows 512 --precision double \
            --max-reps 5 --csv /dev/null >"$w/ncu-a$a.txt" 2>&1
        grep -E "Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Block Limit|Memory Throughput|Warp Cycles Per Issued" "$w/ncu-a$a.txt" | head -12
    done
fi
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
