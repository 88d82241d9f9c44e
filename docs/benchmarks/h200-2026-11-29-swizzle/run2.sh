#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): the opencl label on NVIDIA's OpenCL with the failures' output (run1's coop and tridiagonal tests failed there), the same four tests on a build with every chunk stride odd (-DHB_COOP_ODD_STRIDE), and round 2 of new against old (CUDA, turn about). Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-swizzle/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
clinc=/usr/local/cuda/include
cllib=$(find /usr/local/cuda/lib64/ /usr/local/cuda/targets/*/lib/ -maxdepth 1 -name 'libOpenCL.so*' 2>/dev/null | sed -n 1p)
(d=/tmp/hb-old && rm -rf $d && mkdir -p $d && tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $d &&
    cd $d && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
        -DOpenCL_INCLUDE_DIR=$clinc ${cllib:+-DOpenCL_LIBRARY=$cllib} \
        -DCMAKE_C_FLAGS=-DHB_COOP_ODD_STRIDE -DCMAKE_CUDA_FLAGS=-DHB_COOP_ODD_STRIDE \
        -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 &&
    cmake --build b -j 6 --target hinesbatch_cli test_coop test_coop_local test_coop_span test_tridiag >>b.log 2>&1) &
pold=$!
HB_GPU_TEST_LABELS=opencl HB_CALL_S=260 bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (opencl): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-opencl.log logs/opencl.log 2>/dev/null
rm -rf "$OUT/t"
wait $pold
echo "old build: $(test -x /tmp/hb-old/b/apps/hinesbatch && echo ok || (echo FAILED; tail -5 /tmp/hb-old/b.log)), $(($(date +%s) - t0)) s"
icd=build-gpu/icd
[ -d $icd ] || { lib=$(ldconfig -p | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p); mkdir -p /tmp/icd; echo "$lib" >/tmp/icd/nvidia.icd; icd=/tmp/icd; }
icd=$(cd $icd && pwd)
(cd /tmp/hb-old && OCL_ICD_VENDORS=$icd HINESBATCH_OPENCL_PLATFORM=NVIDIA timeout 120 ctest --test-dir b -L '^opencl$' \
    -R 'coop|tridiag' -j 4 --output-on-failure >"$w/ctest-opencl-odd.log" 2>&1
    echo "odd-stride opencl coop/tridiag: status $?, $(grep -E 'tests passed|tests failed' "$w/ctest-opencl-odd.log")")
B=build-gpu/apps/hinesbatch
declare -A bin=([new]=$B [old]=/tmp/hb-old/b/apps/hinesbatch)
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
for round in 2 3; do
    for k in old new; do
        [ $(($(date +%s) - t0)) -lt 470 ] || { echo "$k round $round: skipped"; continue; }
        s=$(date +%s)
        timeout 40 ${bin[$k]} bench --suite thomas --backend cuda --strategy auto --systems 256,2560,25600,256000 \
            --rows 64,512 --precision double "${q[@]}" --csv "$w/$k-r$round-512.csv" >/dev/null 2>"$w/$k-r$round-512.log"
        echo "$k round $round: $(($(date +%s) - s)) s"
    done
done
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
