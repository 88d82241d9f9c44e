#!/usr/bin/env bash
# run7.sh: the seventh device call of this record (H200), issue 17: the resident Thomas kernel loading one row at a time with its loops not unrolled (-DHB_COOPL_BATCH=1 -DHB_COOPL_NOUNROLL: CUDA's registers on NVIDIA's OpenCL, and faster in float on both in calls 3-4) over the float Thomas grid through the library's bench: CUDA built both ways (b0 as committed, b1 with the variant), NVIDIA's OpenCL both ways in b0 (extra.diff's HB_CL_EXTRA), turn about. Comes back in call7.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-sass/run7.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
r=docs/benchmarks/h200-2026-11-30-sass
w=$OUT/call7
mkdir -p "$w" /tmp/icd
# The HB_COOPL_NOUNROLL hooks the variants use (in the working tree during the recorded call).
git apply "$r/nounroll.diff" || exit 1
t0=$(date +%s)
limit=${HB_CALL_S:-250}
left() { echo $((limit - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
git apply "$r/extra.diff" || exit 1
(cmake -S . -B b0 -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" && cmake --build b0 -j 8 --target hinesbatch_cli) >"$w/build0.log" 2>&1 &
(cmake -S . -B b1 -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" "-DCMAKE_CUDA_FLAGS=-DHB_COOPL_BATCH=1 -DHB_COOPL_NOUNROLL" &&
    cmake --build b1 -j 8 --target hinesbatch_cli) >"$w/build1.log" 2>&1 &
wait
echo "builds: $(tail -1 "$w/build0.log") / $(tail -1 "$w/build1.log") after $(($(date +%s) - t0)) s"
grep -c "HB_COOPL" b1/backend_cuda/CMakeFiles/hb_backend_cuda.dir/flags.make
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --kind thomas --precision float)
pts=("--systems 256,2560,25600,256000 --rows 64,512" "--systems 20,2000 --rows 1024,8192")
v="-DHB_COOPL_NOUNROLL -DHB_COOPL_BATCH=1"
for round in 1 2; do
    for i in 0 1; do
        [ "$(left)" -gt 40 ] || continue
        timeout 60 b0/apps/hinesbatch bench --backend cuda,opencl "${q[@]}" ${pts[$i]} --csv "$w/r$round-b0-p$i.csv" >"$w/r$round-b0-p$i.log" 2>&1
        HB_CL_EXTRA="$v" timeout 60 b0/apps/hinesbatch bench --backend opencl "${q[@]}" ${pts[$i]} --csv "$w/r$round-b0v-p$i.csv" >"$w/r$round-b0v-p$i.log" 2>&1
        timeout 60 b1/apps/hinesbatch bench --backend cuda "${q[@]}" ${pts[$i]} --csv "$w/r$round-b1-p$i.csv" >"$w/r$round-b1-p$i.log" 2>&1
        echo "round $round set $i done at $(($(date +%s) - t0)) s"
    done
done
for f in "$w"/r*.csv; do awk -F, -v f="$(basename "$f" .csv)" 'NR>1 {printf "%s %s %s %sx%s %s %s\n", f, $1, $6, $7, $8, $11, $5}' "$f"; done | sort -k3,3 -k4,4 | tee "$w/summary.txt"
tar -czf "$OUT/call7.tar.gz" -C "$OUT" call7 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
