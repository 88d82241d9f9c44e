#!/usr/bin/env bash
# run1.sh: the first device call of this record (H200): `ci/gpu.sh --tests` (cuda label) and the cooperative/tridiagonal tests on NVIDIA's OpenCL on this tree; the resident Thomas kernel with power-of-two chunk strides permuted across the banks (new), with every stride odd (old: -DHB_COOP_ODD_STRIDE) and new with 4 rows loaded per work-item at once (b4: -DHB_COOPL_BATCH=4), built alike, two rounds turn about; Nsight Compute of new and old at 256,000 x 512 double; tiny solves (launch and synchronisation) on CUDA and NVIDIA OpenCL; `hinesbatch simulate` on NVIDIA OpenCL at 2,000-5,000 cells, stage vx against none. Everything comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-swizzle/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call1
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-560}
left() { echo $((limit - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$w/gpu.txt"
variant() { # variant NAME CFLAGS: this tree built (Release, CUDA only) in /tmp/hb-NAME with the flags
    local d=/tmp/hb-$1
    rm -rf $d && mkdir -p $d && tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $d &&
        cd $d && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
            -DCMAKE_C_FLAGS="$2" -DCMAKE_CUDA_FLAGS="$2" -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 &&
        cmake --build b -j 5 --target hinesbatch_cli >>b.log 2>&1
}
(variant old -DHB_COOP_ODD_STRIDE) &
pold=$!
(variant b4 -DHB_COOPL_BATCH=4) &
pb4=$!
HB_GPU_TEST_LABELS=cuda HB_CALL_S=200 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:|Failed|Timeout" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-cuda.log 2>/dev/null
rm -rf "$OUT/t"
# NVIDIA's OpenCL: the cooperative and tridiagonal tests on this build.
lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd
(export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
    timeout 120 ctest --test-dir build-gpu -L '^opencl$' -R 'coop|tridiag|thomas|plans' -j 4 >"$w/ctest-opencl-coop.log" 2>&1
    echo "ctest opencl coop: status $?, $(grep -E 'tests passed|tests failed' "$w/ctest-opencl-coop.log")")
wait $pold $pb4
for k in old b4; do
    echo "$k build: $(test -x /tmp/hb-$k/b/apps/hinesbatch && echo ok || (echo FAILED; tail -5 /tmp/hb-$k/b.log)), $(($(date +%s) - t0)) s"
done
B=build-gpu/apps/hinesbatch
declare -A bin=([new]=$B [old]=/tmp/hb-old/b/apps/hinesbatch [b4]=/tmp/hb-b4/b/apps/hinesbatch)
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
for round in 1 2; do
    for k in new old b4; do
        [ "$(left)" -gt 300 ] || { echo "$k round $round: skipped"; continue; }
        s=$(date +%s)
        timeout 45 ${bin[$k]} bench --suite thomas --backend cuda --strategy auto --systems 256,2560,25600,256000 \
            --rows 64,512 --precision double,float "${q[@]}" --csv "$w/$k-r$round-512.csv" >/dev/null 2>"$w/$k-r$round-512.log"
        timeout 30 ${bin[$k]} bench --suite thomas --backend cuda --strategy auto --systems 20,2000 --rows 1024,8192 \
            --precision double,float "${q[@]}" --csv "$w/$k-r$round-8192.csv" >/dev/null 2>"$w/$k-r$round-8192.log"
        echo "$k round $round: $(($(date +%s) - s)) s"
    done
done
if command -v ncu >/dev/null; then
    for k in new old; do
        [ "$(left)" -gt 240 ] || break
        timeout 40 ncu --clock-control none -k regex:coop_local --launch-skip 2 --launch-count 1 \
            --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
            --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,dram__bytes.sum \
            ${bin[$k]} bench --backend cuda --kind thomas --strategy cooperative --systems 256000 --rows 512 \
            --precision double --serial-max-rows 0 --max-reps 4 --target-s 0.01 --csv /dev/null >"$w/ncu-$k.txt" 2>&1
        echo "ncu $k: status $?"
    done
fi
# Tiny solves: the time of one launch and its synchronisation, CUDA against NVIDIA's OpenCL.
if [ "$(left)" -gt 180 ]; then
    OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 40 $B bench --suite thomas --backend cuda,opencl \
        --strategy auto --systems 1,256 --rows 2,64,512 --precision double "${q[@]}" --csv "$w/tiny.csv" \
        >/dev/null 2>"$w/tiny.log"
    echo "tiny: status $?"
fi
sim() { # sim TAG CELLS [ENV...] -- [ARGS...]: NVIDIA OpenCL, double
    local tag=$1 n=$2
    shift 2
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=opencl "${envs[@]}" \
        timeout 40 $B simulate --cells "$n" --engine cells --precision double --record 4 --no-split --csv /dev/null \
        "$@" >"$w/sim-$tag.out" 2>&1
    echo "sim $tag: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/sim-$tag.out") ($(grep -o 'one work-group of [0-9]* work-items[^)]*' "$w/sim-$tag.out" | head -1))"
}
for n in 2000 3000 5000; do
    [ "$(left)" -gt 40 ] || break
    sim $n-vx $n HINESBATCH_EPOCH_STAGE=vx -- --group-size 64
    sim $n-96none $n HINESBATCH_EPOCH_STAGE=none -- --group-size 96
done
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
