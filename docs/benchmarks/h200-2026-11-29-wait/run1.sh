#!/usr/bin/env bash
# run1.sh: the first device call of this record (H200): the tree built by ci/gpu.sh (Release, CUDA and OpenCL); test_opencl_queue and test_opencl_plans on NVIDIA's OpenCL (spin, the GPU's default wait now); tiny solves (launch and wait) on CUDA and NVIDIA's OpenCL with HINESBATCH_OPENCL_WAIT=spin and =block, three rounds turn about; the main job on NVIDIA's OpenCL under both. Everything comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-wait/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call1
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-560}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader >"$w/gpu.txt"
# The build alone (a label no test has: no tests run).
HB_GPU_TEST_LABELS="none" bash ci/gpu.sh --limit tests=30 --tests "$OUT/t" >"$w/gpu-sh.out" 2>&1
echo "gpu.sh build: status $?, $(($(date +%s) - t0)) s"
B=build-gpu/apps/hinesbatch
test -x $B || { tail -30 "$w/gpu-sh.out"; exit 1; }
export OCL_ICD_VENDORS=$PWD/build-gpu/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA
(cd build-gpu && timeout 240 ctest -R 'test_opencl_queue|test_opencl_plans' --output-on-failure >"$w/ctest-ocl.log" 2>&1
    echo "ctest opencl_queue, opencl_plans (NVIDIA): status $?, $(grep -E 'tests passed|tests failed' "$w/ctest-ocl.log")"
    grep -E "identical|checks$|passed, " "$w/ctest-ocl.log" | head -8)
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
for round in 1 2 3; do
    for mode in spin block; do
        [ "$(left)" -gt 60 ] || { echo "tiny $mode round $round: skipped"; continue; }
        HINESBATCH_OPENCL_WAIT=$mode timeout 45 $B bench --suite thomas --backend cuda,opencl --strategy auto \
            --systems 1,256 --rows 2,64,512 --precision double "${q[@]}" --csv "$w/tiny-$mode-$round.csv" \
            >/dev/null 2>"$w/tiny-$mode-$round.log"
        echo "tiny $mode round $round: status $?"
    done
done
for round in 1 2; do
    for mode in spin block; do
        [ "$(left)" -gt 40 ] || { echo "sim $mode round $round: skipped"; continue; }
        HINESBATCH_OPENCL_WAIT=$mode HINESBATCH_BACKEND=opencl timeout 40 $B simulate --cells 200 --precision double \
            --record 4 --no-split --csv /dev/null >"$w/sim-$mode-$round.out" 2>&1
        echo "sim $mode round $round: $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/sim-$mode-$round.out")"
    done
done
python3 - "$w" <<'PY'
import csv, glob, os, sys, collections
w = sys.argv[1]
med = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(w, "tiny-*.csv"))):
    mode = os.path.basename(f).split("-")[1]
    for r in csv.DictReader(open(f)):
        if r.get("backend") in ("cuda", "opencl"):
            key = (r["backend"] if r["backend"] == "cuda" else "opencl-" + mode, r["systems"], r["rows_min"])
            try:
                med[key].append(float(r["time_ms_median"]))
            except (KeyError, ValueError):
                pass
pts = sorted({(k[1], k[2]) for k in med}, key=lambda t: (int(t[0]), int(t[1])))
print("| systems x rows | CUDA ms | OpenCL spin ms | OpenCL block ms | spin/CUDA | block/CUDA |")
print("|---|---|---|---|---|---|")
for s, n in pts:
    c = med.get(("cuda", s, n), [])
    sp = med.get(("opencl-spin", s, n), [])
    bl = med.get(("opencl-block", s, n), [])
    f = lambda v: "/".join("%.4f" % x for x in v) or "-"
    m = lambda v: sorted(v)[len(v) // 2] if v else float("nan")
    print("| %s x %s | %s | %s | %s | %.2f | %.2f |" % (s, n, f(c), f(sp), f(bl), m(c) / m(sp), m(c) / m(bl)))
PY
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w" "$OUT/t"
echo "done in $(($(date +%s) - t0)) s"
