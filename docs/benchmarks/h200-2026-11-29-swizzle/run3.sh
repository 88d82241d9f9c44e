#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200): why the resident Thomas tests fail on NVIDIA's OpenCL (run1, run2): this tree and this tree with bc4cfc6 (the kernel's work-group limit cached) reversed (kmax.diff), both OpenCL only, test_coop_local and test_tridiag one at a time and then four tests at once. Everything comes back in call3.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-swizzle/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call3
mkdir -p "$w"
t0=$(date +%s)
rec=docs/benchmarks/h200-2026-11-29-swizzle
clinc=/usr/local/cuda/include
cllib=$(find /usr/local/cuda/lib64/ /usr/local/cuda/targets/*/lib/ -maxdepth 1 -name 'libOpenCL.so*' 2>/dev/null | sed -n 1p)
lib=$(ldconfig -p | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd
tree() { # tree NAME [PATCH]: this tree (OpenCL only) in /tmp/hb-NAME, the patch reversed
    local d=/tmp/hb-$1
    rm -rf $d && mkdir -p $d && tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $d && cd $d &&
        { [ -z "${2:-}" ] || patch -R -p1 <"$2" >patch.log 2>&1; } &&
        cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENCL=ON \
            -DOpenCL_INCLUDE_DIR=$clinc ${cllib:+-DOpenCL_LIBRARY=$cllib} >b.log 2>&1 &&
        cmake --build b -j 8 --target test_coop_local test_tridiag test_coop test_coop_span >>b.log 2>&1
}
(tree head) &
p1=$!
(tree rev "$PWD/$rec/kmax.diff") &
p2=$!
wait $p1 $p2
for k in head rev; do echo "$k build: $(test -x /tmp/hb-$k/b/tests/test_coop_local && echo ok || (echo FAILED; tail -5 /tmp/hb-$k/b.log; cat /tmp/hb-$k/patch.log)), $(($(date +%s) - t0)) s"; done
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=opencl HB_TEST_SEED=6306807953807
one() { # one TREE TEST: alone
    local s=$(date +%s)
    timeout 150 /tmp/hb-$1/b/tests/$2 >"$w/$1-$2.log" 2>&1
    echo "$1 $2 alone: status $?, $(grep -c '^FAIL' "$w/$1-$2.log") FAIL lines, $(tail -1 "$w/$1-$2.log"), $(($(date +%s) - s)) s"
    grep -m3 '^FAIL' "$w/$1-$2.log" | cut -c1-300
}
for k in head rev; do
    one $k test_tridiag
    one $k test_coop_local
done
for k in head rev; do
    [ $(($(date +%s) - t0)) -lt 420 ] || break
    s=$(date +%s)
    for t in test_coop_local test_tridiag test_coop test_coop_span; do
        (timeout 120 /tmp/hb-$k/b/tests/$t >"$w/$k-$t-par.log" 2>&1; echo "$k $t in four: status $?, $(grep -c '^FAIL' "$w/$k-$t-par.log") FAIL lines") &
    done
    wait
    echo "$k four at once: $(($(date +%s) - s)) s"
done
nvidia-smi >"$w/nvidia-smi.txt" 2>&1
tar -czf "$OUT/call3.tar.gz" -C "$OUT" call3 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
