#!/usr/bin/env bash
# run1.sh: the device call of this record (H200): ci/gpu.sh's build and its nmodl label (the generated mechanisms, tests/nmodl/mod/vstep.mod among them, on CUDA and OpenCL against the host); then a build whose catalogue carries the t checks' .mod files (as ci/l5pc-compare.sh configures it, CUDA on) and ci/t-compare.sh on CUDA (every half: t, TPulse, VStep, diam, pool, area, arrays). Everything comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-vstep/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call1
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-565}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mechs="$(ls "$PWD"/data/models/l5pc/mod/*.mod | tr '\n' ';')"
for m in tdrive tpulse vstep cal cashell cpool karea cashells; do mechs="$mechs$PWD/tests/nmodl/mod/$m.mod;"; done
(cmake -S . -B build-l5pc-gpu -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DHINESBATCH_MECHANISMS="${mechs%;}" >"$w/l5pc-gpu.log" 2>&1 &&
    cmake --build build-l5pc-gpu -j 8 --target hinesbatch_cli hinesbatch_static >>"$w/l5pc-gpu.log" 2>&1
    echo "catalogue build: status $?, $(($(date +%s) - t0)) s") &
p1=$!
HB_GPU_TEST_LABELS="nmodl" bash ci/gpu.sh --limit tests=200 --tests "$OUT/t" >"$w/gpu-sh.out" 2>&1
echo "gpu.sh --tests (nmodl): status $?, $(($(date +%s) - t0)) s"
grep -E "ctest|build:" "$OUT/t/summary.txt"
cp "$OUT/t/summary.txt" "$w/gpu-tests-summary.txt"
tar -xzf "$OUT/t/logs.tar.gz" -C "$w" logs/ctest-nmodl.log 2>/dev/null
rm -rf "$OUT/t"
wait $p1
OUT=/tmp/tc-cuda timeout $(($(left) - 20)) bash ci/t-compare.sh build-l5pc-gpu cuda >"$w/t-compare-cuda.md" 2>&1
echo "t-compare cuda: status $?, $(($(date +%s) - t0)) s; $(grep -c '| yes |' "$w/t-compare-cuda.md") runs within bounds, $(grep -c '| NO |' "$w/t-compare-cuda.md") not"
grep -E "vstep|VStep" "$w/t-compare-cuda.md" | head -10
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
