#!/usr/bin/env bash
# run3.sh: third device call of this record (H200): the connection values (hb_net_set_values / hb_net_get_values) and the epoch's row constants first on CUDA and NVIDIA's OpenCL: a catalogue of the built-in mechanisms plus stp.mod, pulse.mod and train.mod runs tests/nmodl/tcheck/stp_net.c (StpSyn and PulseSyn per connection, values read back) on both, engines 0 auto, 1 stages, 2 cells, double and float; a build of the built-in catalogue runs the CUDA simulation and network tests, and `simulate` of 10,000 and 200 CA1 cells on NVIDIA's OpenCL beside CUDA. Output in call3-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-counts/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
mkdir -p /tmp/icd /tmp/r3
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
mechs="$PWD/tests/nmodl/mod/stp.mod;$PWD/tests/nmodl/mod/pulse.mod;$PWD/tests/nmodl/mod/train.mod"
cfg=(-DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES="$arch")
(cmake -S . -B /tmp/r3/bm "${cfg[@]}" -DHINESBATCH_MECHANISMS="$mechs" >/tmp/r3/build-mechs.log 2>&1 &&
    cmake --build /tmp/r3/bm -j 8 --target hinesbatch_static >>/tmp/r3/build-mechs.log 2>&1) &
(cmake -S . -B /tmp/r3/b "${cfg[@]}" >/tmp/r3/build.log 2>&1 && cmake --build /tmp/r3/b -j 8 >>/tmp/r3/build.log 2>&1) &
wait
tail -3 /tmp/r3/build-mechs.log /tmp/r3/build.log >"$OUT/call3-build.txt"
echo "builds after $(($(date +%s) - t0)) s"
ver=$(find /tmp/r3/bm -name hinesbatch_version.h -not -path '*/CMakeFiles/*' | head -1)
priv=$(sed -n 's/^Libs.private: //p' /tmp/r3/bm/hinesbatch.pc)
# shellcheck disable=SC2086 # Libs.private is a list of flags
cc -std=c11 -O1 -I api/include -I "$(dirname "$ver")" tests/nmodl/tcheck/stp_net.c /tmp/r3/bm/libhinesbatch.a \
    $priv -lm -o /tmp/r3/stp_net || echo "building stp_net failed"
for b in cuda opencl; do
    for e in 0 1 2; do
        for p in 0 1; do
            for m in "StpSyn g" "PulseSyn wsum"; do
                # shellcheck disable=SC2086
                OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$b timeout 120 \
                    /tmp/r3/stp_net tests/nmodl/tcheck/soma.swc $e $p "${m%% *}-$b-e$e-p$p" $m
            done
        done
    done
done 2>&1 | tee "$OUT/call3-values.txt"
(cd /tmp/r3/b && timeout 200 ctest -L cuda -R "sim|net|probe" --output-on-failure >"$OUT/call3-ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$OUT/call3-ctest-cuda.txt")"
for run in "10000 double" "200 double" "10000 float"; do
    set -- $run
    line="$1 cells, $2:"
    for b in cuda opencl cuda opencl; do
        OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$b timeout 90 \
            /tmp/r3/b/apps/hinesbatch simulate --cells "$1" --precision "$2" --record 4 --no-split --csv /dev/null \
            >/tmp/r3/sim.txt 2>&1
        line="$line $b $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' /tmp/r3/sim.txt)"
    done
    echo "$line" | tee -a "$OUT/call3-sim.txt"
done
echo "done in $(($(date +%s) - t0)) s"
