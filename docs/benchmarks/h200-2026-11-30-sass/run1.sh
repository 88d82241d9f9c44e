#!/usr/bin/env bash
# run1.sh: the first device call of this record (H200): the resident Thomas and cell-group Hines kernels as NVIDIA's OpenCL compiles them (its PTX through ptxas, its verbose log) beside CUDA's (nvcc, the library's flags), SASS and resource use of both. Comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-sass/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
r=docs/benchmarks/h200-2026-11-30-sass
w=$OUT/call1
mkdir -p "$w" /tmp/icd
t0=$(date +%s)
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
gcc -std=c11 -O1 "$r/dump_ptx.c" -o /tmp/dump_ptx -lOpenCL || exit 1
nvidia-smi >"$w/smi.txt"
inc="-I$PWD/api/include -I$PWD/build/include -I$PWD/backend_cuda -I$PWD/api/core -I$PWD/api/sim -I$PWD/api/cardiac -I$PWD/kernels_cl -I$PWD/kernels_cl/cardiac/catalogue"
for k in thomas_coop_local hines_cell; do
    for p in double float; do
        /tmp/dump_ptx "$PWD/kernels_cl" "solver/$k.cl" $p "$w/ocl_${k}_$p.ptx" >"$w/ocl_${k}_$p.log" 2>&1
        echo "ocl $k $p: $?"
        ptxas -arch=sm_$arch -O3 -v "$w/ocl_${k}_$p.ptx" -o "$w/ocl_${k}_$p.cubin" >"$w/ocl_${k}_$p.ptxas" 2>&1
        cuobjdump -sass "$w/ocl_${k}_$p.cubin" >"$w/ocl_${k}_$p.sass" 2>&1
        rm -f "$w/ocl_${k}_$p.cubin"
    done
    nvcc -DHINESBATCH_BUILDING_SHARED $inc -O3 -DNDEBUG -arch=sm_$arch -fmad=false -std=c++14 \
        -cubin "backend_cuda/solver/$k.cu" -o "$w/cuda_$k.cubin" -Xptxas -v >"$w/cuda_$k.ptxas" 2>&1
    echo "cuda $k: $?"
    nvcc -DHINESBATCH_BUILDING_SHARED $inc -O3 -DNDEBUG -arch=sm_$arch -fmad=false -std=c++14 \
        -ptx "backend_cuda/solver/$k.cu" -o "$w/cuda_$k.ptx" >/dev/null 2>&1
    cuobjdump -sass "$w/cuda_$k.cubin" >"$w/cuda_$k.sass" 2>&1
    rm -f "$w/cuda_$k.cubin"
done
grep -H "registers\|spill\|smem" "$w"/*.ptxas "$w"/ocl_*.log | head -60
wc -l "$w"/*.sass
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
