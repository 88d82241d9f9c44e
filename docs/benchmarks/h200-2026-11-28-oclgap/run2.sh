#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): the main job on CUDA under each preferred L1/shared carveout (a patch on the device copy only), beside NVIDIA OpenCL, to test whether the L1 left beside the cells' shared memory explains OpenCL's 0.87x; and the OpenMP fused loop before/after once more, alternated six times at 16 threads.
# Usage, from the repository root on the GPU machine, with .old/backend_omp as in ../h200-2026-11-28-omp/run.sh:
#   OUT=DIR bash docs/benchmarks/h200-2026-11-28-oclgap/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
root=$PWD
python3 - <<'PY'
p = 'backend_cuda/error.cu'
s = open(p).read()
a = '''                                          (int)impl->smem_optin));
    return HB_SUCCESS;'''
b = '''                                          (int)impl->smem_optin));
    if (getenv("HB_XCARVE"))
        HB_CUDA_CALL(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          atoi(getenv("HB_XCARVE"))));
    return HB_SUCCESS;'''
assert a in s
s = s.replace(a, b, 1)
if '#include <stdlib.h>' not in s:
    s = s.replace('#include "cuda_backend.h"', '#include "cuda_backend.h"\n#include <stdlib.h>', 1)
open(p, 'w').write(s)
PY
HB_CALL_S=100 bash ci/gpu.sh --limit tests=1 --tests "$OUT/t" >/dev/null 2>&1
grep -E "build:" "$OUT/t/summary.txt"
B=build-gpu/apps/hinesbatch
[ -d build-gpu/icd ] && export OCL_ICD_VENDORS=$PWD/build-gpu/icd
job=(simulate --cells 200 --engine cells --precision double --record 4 --csv /dev/null --no-split)
r() { sed -n 's/^performance: \([^ ]*\) .*/\1/p'; }
echo "| run | carveout | compartment-steps/s |" >"$OUT/carveout.md"
echo "|---|---|---|" >>"$OUT/carveout.md"
for i in 1 2; do
    for c in none 0 25 50 75 100; do
        if [ "$c" = none ]; then
            x=$(HINESBATCH_BACKEND=cuda timeout 60 $B "${job[@]}" 2>&1 | r)
        else
            x=$(HB_XCARVE=$c HINESBATCH_BACKEND=cuda timeout 60 $B "${job[@]}" 2>&1 | r)
        fi
        echo "| cuda #$i | $c | $x |" | tee -a "$OUT/carveout.md"
    done
    x=$(HINESBATCH_BACKEND=opencl timeout 60 $B "${job[@]}" 2>&1 | r)
    echo "| opencl #$i | (driver's) | $x |" | tee -a "$OUT/carveout.md"
done
for c in none 100; do
    x=$( { [ $c = none ] || export HB_XCARVE=$c; HINESBATCH_BACKEND=cuda timeout 60 $B "${job[@]}" --cells 10000 2>&1; } | r)
    echo "| cuda 10000 cells | $c | $x |" | tee -a "$OUT/carveout.md"
done
mk() { # NAME [OVERLAY]
    local d=/tmp/omp-$1
    rm -rf "$d" && mkdir -p "$d/src"
    tar --exclude='./build*' --exclude='./.old' --exclude='./.git' -cf - . | tar -x -C "$d/src"
    [ -n "${2:-}" ] && cp -a "$2/." "$d/src/backend_omp/"
    cmake -S "$d/src" -B "$d/b" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=OFF \
        -DHINESBATCH_WITH_OPENCL=OFF >/dev/null 2>&1 &&
        cmake --build "$d/b" -j 16 --target hinesbatch_cli >/dev/null 2>&1
    echo "build $1: status $?"
}
mk before "$root/.old/backend_omp"
mk after
export HINESBATCH_DATA_DIR=$root/data OMP_PROC_BIND=close OMP_NUM_THREADS=16
rate() { HINESBATCH_BACKEND=openmp timeout 120 /tmp/omp-$1/b/apps/hinesbatch "${job[@]}" --precision "$2" | r; }
echo "| run | precision | before | after |" >"$OUT/omp16.md"
echo "|---|---|---|---|" >>"$OUT/omp16.md"
for i in 1 2 3 4 5 6; do
    for prec in double float; do
        echo "| $i | $prec | $(rate before $prec) | $(rate after $prec) |" | tee -a "$OUT/omp16.md"
    done
done
