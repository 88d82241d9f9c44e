#!/usr/bin/env bash
# run1.sh: the device call of this record (H200): NMODL's net_send (self-events) on CUDA and NVIDIA's OpenCL. A build whose catalogue holds the L5PC and tests/nmodl mechanisms (ci/l5pc-compare.sh's list, pulse.mod and stp.mod among them) runs ci/t-compare.sh on CUDA (every half, every engine, both precisions, against NEURON's committed runs; a full queue must fail), and pulse.mod's half on NVIDIA's OpenCL; a build of the built-in catalogue (no sender: the queues compiled out) runs the CUDA simulation, network and mechanism tests, whose kernels take the new table. Comes back in call1.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-send/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call1
mkdir -p "$w" /tmp/icd
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
mechs="$(ls "$PWD"/data/models/l5pc/mod/*.mod | tr '\n' ';')"
for m in tdrive tpulse vstep cal cashell cpool karea cashells gclamp crw stp pulse; do mechs="$mechs$PWD/tests/nmodl/mod/$m.mod;"; done
mechs=${mechs%;}
cfg=(-DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES="$arch")
(cmake -S . -B bm "${cfg[@]}" -DHINESBATCH_MECHANISMS="$mechs" >"$w/build-mechs.log" 2>&1 &&
    cmake --build bm -j 8 --target hinesbatch_cli hinesbatch_static >>"$w/build-mechs.log" 2>&1) &
(cmake -S . -B b "${cfg[@]}" >"$w/build.log" 2>&1 && cmake --build b -j 8 >>"$w/build.log" 2>&1) &
wait
echo "builds: $(ls bm/apps/hinesbatch b/tests/test_net 2>&1 | tr '\n' ' ') after $(($(date +%s) - t0)) s"
OUT="$w/t-compare" timeout 200 bash ci/t-compare.sh bm cuda >"$w/t-compare-cuda.txt" 2>&1
echo "t-compare cuda: status $? at $(($(date +%s) - t0)) s: $(grep -c '| yes |' "$w/t-compare-cuda.txt") rows within bounds, $(grep -c '| NO |\|failed' "$w/t-compare-cuda.txt") not"
grep -i "stp\|pulse" "$w/t-compare-cuda.txt"
# pulse.mod's half on NVIDIA's OpenCL (t-compare built point_run against bm).
ev=0.002:1,2,2.2,3.5,5,5.1,5.2,5.3,5.4,5.5,5.6,5.7,8
for e in 0 1 2; do
    for p in 0 1; do
        b="1e-9 1e-12"
        [ $p = 1 ] && b="1e-3 1e-6"
        tag=pulsesyn-nvocl-e$e-p$p
        # shellcheck disable=SC2086
        OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=opencl timeout 90 \
            "$w/t-compare/point_run" tests/nmodl/tcheck/soma.swc $e $p "$w/$tag.csv" PulseSyn $ev &&
            python3 tests/nmodl/tcheck/compare.py "$w/$tag.csv" tests/nmodl/tcheck/pulse_reference.csv $tag $b
    done
done 2>&1 | tee "$w/nvidia-opencl-pulse.txt"
(cd b && timeout 240 ctest -L cuda -R "sim|net|nmodl|probe" --output-on-failure >"$w/ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$w/ctest-cuda.txt") at $(($(date +%s) - t0)) s"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
