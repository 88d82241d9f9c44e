#!/usr/bin/env bash
# run5.sh: the fifth device call of this record (H200), issue 17: call 4 found NVIDIA's OpenCL launch + clFinish of the resident Thomas kernel within 0-3 us of CUDA's outside the library, where the library's bench shows 5-15 us more. The bench cycles a ring of plans (each solve on data written ring-1 solves before, a new set of buffers each launch); here the same points on CUDA and NVIDIA's OpenCL with the default ring and with --ring-mib 1 (one plan, or two, solved again and again, as a simulation does), two rounds turn about, the tree as committed. Comes back in call5.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-sass/run5.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call5
mkdir -p "$w" /tmp/icd
t0=$(date +%s)
limit=${HB_CALL_S:-330}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$w/build.log" 2>&1 &&
    cmake --build b -j 16 --target hinesbatch_cli >>"$w/build.log" 2>&1
echo "build: $? after $(($(date +%s) - t0)) s"
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --kind thomas --systems 256,2560,25600
    --rows 64,512 --precision double,float)
for round in 1 2; do
    for ring in default 1; do
        [ "$(left)" -gt 50 ] || continue
        extra=()
        [ $ring = 1 ] && extra=(--ring-mib 1)
        timeout 80 b/apps/hinesbatch bench --backend cuda,opencl "${q[@]}" "${extra[@]}" \
            --csv "$w/r$round-ring-$ring.csv" >"$w/r$round-ring-$ring.log" 2>&1
        echo "round $round ring $ring: status $? at $(($(date +%s) - t0)) s"
        awk -F, 'NR>1 {k=$6" "$7"x"$8; t[k,$1]=$11; keys[k]=1} END {for (k in keys) printf "  %-14s cuda %.4f opencl %.4f ms, opencl/cuda %.2f\n", k, t[k,"cuda"], t[k,"opencl"], (t[k,"cuda"]>0 ? t[k,"opencl"]/t[k,"cuda"] : 0)}' "$w/r$round-ring-$ring.csv" | sort
    done
done
grep -h "plan(s) cycled" "$w"/r1-ring-*.log | sed 's/.*thomas thomas \([a-z]* [0-9]* x [0-9]*\) rows.*, \([0-9]*\) plan(s) cycled, \([0-9]*\) reps.*/\1: ring \2, reps \3/' | sort | uniq
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call5.tar.gz" -C "$OUT" call5 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
