#!/usr/bin/env bash
# run6.sh: the sixth device call of this record (H200), issue 17: where NVIDIA's OpenCL loses to CUDA on the resident Thomas kernel at mid-size batches (2,560 x 512: 0.72-0.86x, not profiled), is it the groups' local memory (the L1/shared split that OpenCL cannot set)? The same bench points on CUDA and on NVIDIA's OpenCL, side by side, at the rule's group size and forced ones (fewer or more work-items per system: less or more local memory per group), 256 and 2,560 x 512 and 25,600 x 64, double and float. Comes back in call6.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-async/run6.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call6
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-400}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$w/build.log" 2>&1 &&
    cmake --build b -j 16 --target hinesbatch_cli >>"$w/build.log" 2>&1
echo "build: $? after $(($(date +%s) - t0)) s"
lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
mkdir -p /tmp/icd && echo "$lib" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3)
for round in 1 2; do
    for pt in 2560:512 256:512 25600:64; do
        IFS=: read -r s r <<<"$pt"
        for p in double float; do
            for g in 0 16 32 128; do
                [ "$(left)" -gt 30 ] || continue
                timeout 30 b/apps/hinesbatch bench --backend cuda,opencl --kind thomas --systems "$s" --rows "$r" \
                    --precision $p --group-size $g "${q[@]}" --csv "$w/r$round-$s-$r-$p-g$g.csv" \
                    >"$w/r$round-$s-$r-$p-g$g.log" 2>&1
                echo "r$round $s x $r $p group $g: $(awk -F, 'NR>1 {t[$1]=$11} END {printf "cuda %.4f opencl %.4f ms, opencl/cuda %.2f", t["cuda"], t["opencl"], t["opencl"]/t["cuda"]}' "$w/r$round-$s-$r-$p-g$g.csv")"
            done
        done
    done
done
grep -h "describe\|layout=" "$w"/r1-2560-512-double-g0.log | head -3
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call6.tar.gz" -C "$OUT" call6 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
