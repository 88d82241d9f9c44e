#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200), issue 17: NVIDIA's OpenCL gives the resident Thomas kernel 72 registers in double and 64 in float where CUDA gives 56 and 48 (call 1). Registers and spills of source and option variants as NVIDIA's OpenCL compiles them, then the bench points of the Thomas grid with each variant on OpenCL beside CUDA in the same run (extra.diff: HB_CL_EXTRA appended to the OpenCL build options, for this measurement only). Comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-sass/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
r=docs/benchmarks/h200-2026-11-30-sass
w=$OUT/call2
mkdir -p "$w" /tmp/icd
# The HB_COOPL_NOUNROLL hooks the variants use (in the working tree during the recorded call).
git apply "$r/nounroll.diff" || exit 1
t0=$(date +%s)
limit=${HB_CALL_S:-560}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
gcc -std=c11 -O1 "$r/dump_ptx.c" -o /tmp/dump_ptx -lOpenCL || exit 1
variants=("" "-DHB_COOPL_NOUNROLL" "-DHB_COOPL_BATCH=1" "-DHB_COOPL_NOUNROLL -DHB_COOPL_BATCH=1"
    "-cl-nv-maxrregcount=64" "-cl-nv-maxrregcount=56" "-cl-nv-maxrregcount=48")
for p in double float; do
    for i in "${!variants[@]}"; do
        /tmp/dump_ptx "$PWD/kernels_cl" solver/thomas_coop_local.cl $p "$w/v$i-$p.ptx" "${variants[$i]}" >"$w/v$i-$p.log" 2>&1
        echo "$p [${variants[$i]}]: $(grep -h 'Used\|spill' "$w/v$i-$p.log" | tr -s ' \n' ' ')"
    done
done
rm -f "$w"/*.ptx
git apply "$r/extra.diff" || exit 1
cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$w/build.log" 2>&1 &&
    cmake --build b -j 16 --target hinesbatch_cli >>"$w/build.log" 2>&1
echo "build: $? after $(($(date +%s) - t0)) s"
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --kind thomas --systems 256,2560,25600,256000
    --rows 64,512 --precision double,float)
timed=("" "-DHB_COOPL_NOUNROLL" "-DHB_COOPL_NOUNROLL -DHB_COOPL_BATCH=1" "-cl-nv-maxrregcount=56")
for round in 1 2; do
    for i in "${!timed[@]}"; do
        [ "$(left)" -gt 60 ] || continue
        HB_CL_EXTRA="${timed[$i]}" timeout 90 b/apps/hinesbatch bench --backend cuda,opencl "${q[@]}" \
            --csv "$w/r$round-t$i.csv" >"$w/r$round-t$i.log" 2>&1
        echo "round $round [${timed[$i]}] status $? at $(($(date +%s) - t0)) s"
    done
done
head -1 "$w/r1-t0.csv"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
