#!/usr/bin/env bash
# run1.sh: the first device call of this record (H200), issue 17: the library's OpenCL path took 2-5 us more per solve than the bare kernel launch (h200-2026-11-30-sass). Here the launch sets only the arguments a kernel does not already hold (args.diff); the Thomas bench points on CUDA, NVIDIA's OpenCL with that change, and NVIDIA's OpenCL as before (args.diff reversed), with the ring of plans and with one plan, two rounds turn about; then the OpenCL plan and simulation tests on NVIDIA's OpenCL. Comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-args/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
r=docs/benchmarks/h200-2026-11-30-args
w=$OUT/call1
mkdir -p "$w" /tmp/icd
t0=$(date +%s)
limit=${HB_CALL_S:-540}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
# The tree as before: a copy with args.diff reversed.
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./b --exclude=./.git -cf - . | tar -xf - -C /tmp/old
(cd /tmp/old && patch -s -R -p1 <"$r/args.diff") || exit 1
cfg=(-DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES="$arch")
(cmake -S . -B b "${cfg[@]}" >"$w/build.log" 2>&1 &&
    cmake --build b -j 12 --target hinesbatch_cli test_opencl_plans test_opencl_sim test_coop_local test_cell_group >>"$w/build.log" 2>&1) &
(cmake -S /tmp/old -B /tmp/old/b "${cfg[@]}" >"$w/build0.log" 2>&1 &&
    cmake --build /tmp/old/b -j 4 --target hinesbatch_cli >>"$w/build0.log" 2>&1) &
wait
echo "builds: $(ls b/apps/hinesbatch /tmp/old/b/apps/hinesbatch 2>&1 | tr '\n' ' ') after $(($(date +%s) - t0)) s"
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --kind thomas --systems 256,2560,25600
    --rows 64,512 --precision double,float)
for round in 1 2; do
    for ring in 1 default; do
        [ "$(left)" -gt 150 ] || continue
        extra=()
        [ $ring = 1 ] && extra=(--ring-mib 1)
        timeout 90 b/apps/hinesbatch bench --backend cuda,opencl "${q[@]}" "${extra[@]}" \
            --csv "$w/r$round-ring-$ring.csv" >"$w/r$round-ring-$ring.log" 2>&1
        timeout 90 /tmp/old/b/apps/hinesbatch bench --backend opencl "${q[@]}" "${extra[@]}" \
            --csv "$w/r$round-ring-$ring-old.csv" >"$w/r$round-ring-$ring-old.log" 2>&1
        echo "round $round ring $ring: at $(($(date +%s) - t0)) s"
        awk -F, 'FNR==1 {f++} FNR>1 {k=$6" "$7"x"$8; b=(f==2 ? "old" : $1); t[k,b]=$11; keys[k]=1}
            END {for (k in keys) printf "  %-14s cuda %.4f opencl %.4f (before %.4f) ms, opencl/cuda %.2f (before %.2f)\n", k, t[k,"cuda"], t[k,"opencl"], t[k,"old"], (t[k,"cuda"]>0 ? t[k,"opencl"]/t[k,"cuda"] : 0), (t[k,"cuda"]>0 ? t[k,"old"]/t[k,"cuda"] : 0)}' \
            "$w/r$round-ring-$ring.csv" "$w/r$round-ring-$ring-old.csv" | sort
    done
done
for t in test_opencl_plans test_opencl_sim test_coop_local test_cell_group; do
    [ "$(left)" -gt 40 ] || continue
    HINESBATCH_BACKEND=opencl timeout 120 b/tests/$t >"$w/$t.log" 2>&1
    echo "$t on NVIDIA OpenCL: status $? ($(tail -1 "$w/$t.log"))"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
