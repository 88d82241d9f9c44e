#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): the tree with each kernel's last arguments kept (argcache.diff: a launch sets only the arguments that changed) and the tree before (the diff reversed), both built by ci/gpu.sh in parallel; the raw launch floors (cl_floor.c on NVIDIA's OpenCL and PoCL, cu_floor.cu); test_opencl_queue, test_opencl_plans and test_opencl_sim on NVIDIA's OpenCL with the kept arguments; tiny solves on CUDA and NVIDIA's OpenCL, both trees, with one plan solved again and again (--ring-mib 0) and with the bench's ring of plans, two rounds turn about. Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-wait/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-560}
left() { echo $((limit - ($(date +%s) - t0))); }
R=docs/benchmarks/h200-2026-11-29-wait
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$w/gpu.txt"
rm -rf /tmp/hb-old && mkdir -p /tmp/hb-old && tar --exclude='./build*' -cf - . | tar -xf - -C /tmp/hb-old
(cd /tmp/hb-old && patch -s -R -p1 <$R/argcache.diff && HB_GPU_TEST_LABELS=none bash ci/gpu.sh --limit tests=30 --tests /tmp/t-old \
    >"$w/gpu-sh-old.out" 2>&1) &
p1=$!
HB_GPU_TEST_LABELS=none bash ci/gpu.sh --limit tests=30 --tests /tmp/t-new >"$w/gpu-sh-new.out" 2>&1 &
p2=$!
cuda=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/..
nvcc -O2 -o /tmp/cu_floor $R/cu_floor.cu >"$w/floor-build.log" 2>&1
gcc -O2 -I"$cuda/include" -o /tmp/cl_floor $R/cl_floor.c -L"$cuda/lib64" -lOpenCL >>"$w/floor-build.log" 2>&1
wait $p1 $p2
echo "builds: new $(test -x build-gpu/apps/hinesbatch && echo ok || echo FAILED), old $(test -x /tmp/hb-old/build-gpu/apps/hinesbatch && echo ok || echo FAILED), $(($(date +%s) - t0)) s"
export OCL_ICD_VENDORS=$PWD/build-gpu/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
. ci/opencl-env.sh build-gpu >/dev/null 2>&1
{
    echo "== CUDA"; /tmp/cu_floor
    echo "== NVIDIA OpenCL"; /tmp/cl_floor NVIDIA
    echo "== PoCL"; timeout 60 /tmp/cl_floor Portable
} >"$w/floor.txt" 2>&1
cat "$w/floor.txt"
(cd build-gpu && timeout 200 ctest -R 'test_opencl_queue|test_opencl_plans|test_opencl_sim' --output-on-failure >"$w/ctest-ocl.log" 2>&1
    echo "ctest opencl_queue, opencl_plans, opencl_sim* (NVIDIA): status $?, $(grep -E 'tests passed|tests failed' "$w/ctest-ocl.log")")
declare -A bin=([new]=build-gpu/apps/hinesbatch [old]=/tmp/hb-old/build-gpu/apps/hinesbatch)
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
for round in 1 2; do
    for k in new old; do
        for ring in 0 default; do
            [ "$(left)" -gt 45 ] || { echo "tiny $k ring $ring round $round: skipped"; continue; }
            r=(); [ $ring = 0 ] && r=(--ring-mib 0)
            timeout 45 ${bin[$k]} bench --suite thomas --backend cuda,opencl --strategy auto \
                --systems 1,256 --rows 2,64,512 --precision double "${q[@]}" "${r[@]}" --csv "$w/tiny-$k-ring$ring-$round.csv" \
                >/dev/null 2>"$w/tiny-$k-ring$ring-$round.log"
            echo "tiny $k ring $ring round $round: status $?"
        done
    done
done
python3 - "$w" <<'PY'
import csv, glob, os, sys, collections
w = sys.argv[1]
med = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(w, "tiny-*.csv"))):
    _, tree, ring, _ = os.path.basename(f)[:-4].split("-")
    for r in csv.DictReader(open(f)):
        if r.get("backend") in ("cuda", "opencl"):
            med[(r["backend"], tree, ring, r["systems"], r["rows_min"])].append(float(r["time_ms_median"]))
m = lambda v: sorted(v)[len(v) // 2] if v else float("nan")
for ring in ("ring0", "ringdefault"):
    print("\n%s | systems x rows | CUDA new | OpenCL new | OpenCL old | new OCL/CUDA | old OCL/CUDA" % ring)
    pts = sorted({(k[3], k[4]) for k in med if k[2] == ring}, key=lambda t: (int(t[0]), int(t[1])))
    for s, n in pts:
        c = m(med[("cuda", "new", ring, s, n)] + med[("cuda", "old", ring, s, n)])
        on, oo = m(med[("opencl", "new", ring, s, n)]), m(med[("opencl", "old", ring, s, n)])
        print("%s x %s | %.4f | %.4f | %.4f | %.2f | %.2f" % (s, n, c, on, oo, c / on, c / oo))
PY
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
