#!/usr/bin/env bash
# run3.sh: the fifth device call of this record (H200): after INITIAL's net_send (hb_cat_init takes a send buffer; the queue's head holds the point's own connection). A catalogue of the built-in mechanisms plus stp.mod, pulse.mod and train.mod, CUDA and OpenCL: point_run's TrainSyn and PulseSyn against NEURON's committed runs on CUDA and NVIDIA's OpenCL (engines 0 auto, 1 stages, 2 cells; double and float), a full queue on both, stp_net's PulseSyn per connection on CUDA; a build of the built-in catalogue runs the CUDA simulation, network, probe and nmodl tests. Output in call5-*.txt.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-send/run3.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
mkdir -p /tmp/icd /tmp/r3
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/call5-gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}' >/tmp/icd/nvidia.icd
mechs="$PWD/tests/nmodl/mod/stp.mod;$PWD/tests/nmodl/mod/pulse.mod;$PWD/tests/nmodl/mod/train.mod"
cfg=(-DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES="$arch")
(cmake -S . -B /tmp/r3/bm "${cfg[@]}" -DHINESBATCH_MECHANISMS="$mechs" >"$OUT/call5-build-mechs.log" 2>&1 &&
    cmake --build /tmp/r3/bm -j 8 --target hinesbatch_static >>"$OUT/call5-build-mechs.log" 2>&1) &
(cmake -S . -B /tmp/r3/b "${cfg[@]}" >"$OUT/call5-build.log" 2>&1 && cmake --build /tmp/r3/b -j 8 >>"$OUT/call5-build.log" 2>&1) &
wait
echo "builds after $(($(date +%s) - t0)) s"
ver=$(find /tmp/r3/bm -name hinesbatch_version.h -not -path '*/CMakeFiles/*' | head -1)
priv=$(sed -n 's/^Libs.private: //p' /tmp/r3/bm/hinesbatch.pc)
for p in point_run stp_net; do
    # shellcheck disable=SC2086 # Libs.private is a list of flags
    cc -std=c11 -O1 -I api/include -I "$(dirname "$ver")" tests/nmodl/tcheck/$p.c /tmp/r3/bm/libhinesbatch.a \
        $priv -lm -o /tmp/r3/$p || echo "building $p failed"
done
run() { # run BACKEND TAG NAME REF EVENTS
    local b=$1 tag=$2 name=$3 ref=$4 ev=$5 e p bounds
    for e in 0 1 2; do
        for p in 0 1; do
            bounds="1e-9 1e-12"
            [ $p = 1 ] && bounds="1e-3 1e-6"
            # shellcheck disable=SC2086
            OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$b timeout 120 \
                /tmp/r3/point_run tests/nmodl/tcheck/soma.swc $e $p "/tmp/r3/$tag-e$e-p$p.csv" "$name" "$ev" &&
                python3 tests/nmodl/tcheck/compare.py "/tmp/r3/$tag-e$e-p$p.csv" "$ref" "$tag-e$e-p$p" $bounds
        done
    done
}
for b in cuda opencl; do
    run $b "train-$b" TrainSyn tests/nmodl/tcheck/train_reference.csv 0.001:1,3,5.4,6.8
    run $b "pulse-$b" PulseSyn tests/nmodl/tcheck/pulse_reference.csv 0.002:1,2,2.2,3.5,5,5.1,5.2,5.3,5.4,5.5,5.6,5.7,8
    OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=$b timeout 60 /tmp/r3/point_run \
        tests/nmodl/tcheck/soma.swc 0 0 /tmp/r3/full.csv PulseSyn 0.002:1,1.1,1.2,1.3,1.4,1.5,1.6,1.7,1.8,1.9 2>&1 |
        sed "s/^/full queue, $b: /"
done 2>&1 | tee "$OUT/call5-point.txt"
for e in 0 1 2; do
    for p in 0 1; do
        HINESBATCH_BACKEND=cuda timeout 60 /tmp/r3/stp_net tests/nmodl/tcheck/soma.swc $e $p pulsenet-cuda-e$e-p$p PulseSyn wsum
    done
done 2>&1 | tee "$OUT/call5-net.txt"
(cd /tmp/r3/b && timeout 240 ctest -L cuda -R "sim|net|nmodl|probe" --output-on-failure >"$OUT/call5-ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$OUT/call5-ctest-cuda.txt")"
echo "done in $(($(date +%s) - t0)) s"
