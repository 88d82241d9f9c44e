#!/usr/bin/env bash
# run.sh: the device call of this record (H200 host, 16 cores): the OpenMP fused loop before and after the vectorized tile loops and AVX2 copies, side by side on the main job; CUDA and OpenMP tests; NVIDIA OpenCL's PTX of the epoch kernel for comparison with CUDA's.
# Usage, from the repository root on the GPU machine, with .old/backend_omp holding
# the tree's backend_omp before the change (git archive e604d59 backend_omp):
#   OUT=DIR bash docs/benchmarks/h200-2026-11-28-omp/run.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
root=$PWD
HB_GPU_TEST_LABELS="cuda openmp" HB_CALL_S=${HB_CALL_S:-170} bash ci/gpu.sh --tests "$OUT/t" >/dev/null 2>&1
echo "gpu.sh --tests (cuda openmp): status $?"
grep -E "ctest|build:" "$OUT/t/summary.txt"
# Two OpenMP-only builds of one tree, identical but for backend_omp/.
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
export HINESBATCH_DATA_DIR=$root/data OMP_PROC_BIND=close
rate() { # NAME THREADS PRECISION CELLS
    OMP_NUM_THREADS=$2 HINESBATCH_BACKEND=openmp timeout 120 /tmp/omp-$1/b/apps/hinesbatch simulate \
        --cells "$4" --engine cells --precision "$3" --record 4 --csv /dev/null --no-split 2>&1 |
        sed -n 's/^performance: \([^ ]*\) .*/\1/p'
}
{
    echo "| threads | precision | cells | before | after | after / before |"
    echo "|---|---|---|---|---|---|"
} >"$OUT/omp.md"
for spec in "16 double 200" "16 float 200" "1 double 32" "8 double 200"; do
    set -- $spec
    for i in 1 2 3; do
        b=$(rate before "$1" "$2" "$3")
        a=$(rate after "$1" "$2" "$3")
        r=$(python3 -c "print('%.2f' % ($a / $b))" 2>/dev/null || echo -)
        echo "| $1 | $2 | $3 | $b | $a | $r |" | tee -a "$OUT/omp.md"
    done
done
objdump -d /tmp/omp-after/b/apps/hinesbatch | grep -c "group_d.avx2>:" | sed 's/^/AVX2 copies of group_d in the after build: /'
grep -o -w -m1 "avx512f\|avx2" /proc/cpuinfo | head -2 | tr '\n' ' '; echo
# NVIDIA OpenCL's program binary (PTX) of both precisions: a patch on this copy only.
python3 - <<'PY'
p = 'backend_opencl/program.c'
s = open(p).read()
a = '    cl->program[p] = prog;\n'
add = a + '''    if (getenv("HB_XPTX")) {
        size_t sz = 0;
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, NULL);
        unsigned char *b = malloc(sz + 1), *bp[1] = {b};
        char fn[600];
        if (b && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bp, bp, NULL) == CL_SUCCESS) {
            snprintf(fn, sizeof fn, "%s.%s.ptx", getenv("HB_XPTX"), prec);
            FILE *f = fopen(fn, "wb");
            if (f) { fwrite(b, 1, sz, f); fclose(f); }
        }
        free(b);
    }
'''
assert a in s
open(p, 'w').write(s.replace(a, add, 1))
PY
cmake --build build-gpu -j 16 --target hinesbatch_cli >/dev/null 2>&1
echo "rebuilt with the PTX dump: $?"
[ -d build-gpu/icd ] && export OCL_ICD_VENDORS=$PWD/build-gpu/icd
mkdir -p /tmp/ptx
for prec in double float; do
    HB_XPTX=/tmp/ptx/ocl HINESBATCH_BACKEND=opencl timeout 120 build-gpu/apps/hinesbatch simulate --cells 4 \
        --tstop 1 --precision $prec --record 0 >/dev/null 2>&1
done
ls -la /tmp/ptx
tar -czf "$OUT/ocl-ptx.tar.gz" -C /tmp/ptx .
