#!/usr/bin/env bash
# run7.sh: the seventh device call of this record (H200), NMODL: the read-and-written current (tests/nmodl/mod/crw.mod) on CUDA: a build with ci/l5pc-compare.sh's catalogue (the L5PC channels and the t-check mechanisms, crw among them), CUDA only; the crw half of ci/t-compare.sh on CUDA (its other halves cut, for time); nmodl.cuda where time is left. Comes back in call7.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-async/run7.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call7
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-200}
left() { echo $((limit - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
mechs="$(ls "$PWD"/data/models/l5pc/mod/*.mod | tr '\n' ';')"
for m in tdrive tpulse vstep cal cashell cpool karea cashells gclamp crw; do mechs="$mechs$PWD/tests/nmodl/mod/$m.mod;"; done
cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DHINESBATCH_MECHANISMS="${mechs%;}" >"$w/build.log" 2>&1 &&
    cmake --build b -j 16 --target hinesbatch_cli hinesbatch_static >>"$w/build.log" 2>&1
echo "build: $? after $(($(date +%s) - t0)) s"
# ci/t-compare.sh up to its first half, then the crw half alone.
awk '/^model_cases "" tests\/nmodl\/tcheck\/tdrive.json/ {exit} {print}' ci/t-compare.sh >ci/t-crw-only.sh
sed -n '/^echo "| backend, engine, precision (crw)/,/2,15,1$/p' ci/t-compare.sh >>ci/t-crw-only.sh
echo 'exit $rc' >>ci/t-crw-only.sh
OUT=$w/tc ENGINES="auto cells stages" timeout $(($(left) - 10)) bash ci/t-crw-only.sh b cuda >"$w/t-crw.txt" 2>&1
echo "t-compare crw on cuda: status $?"
grep -E "^\| crw" "$w/t-crw.txt"
tar -czf "$OUT/call7.tar.gz" -C "$OUT" call7 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
