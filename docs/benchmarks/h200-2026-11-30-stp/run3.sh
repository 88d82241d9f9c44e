#!/usr/bin/env bash
# run3.sh: the third device call of this record (H200): stp.mod's two halves of ci/t-compare.sh on NVIDIA's OpenCL (call 1 ran them with the L5PC catalogue, whose OpenCL program each process builds for longer than the call allowed): a build whose catalogue is the built-in one plus stp.mod, point_run against NEURON's committed run and stp_net per connection, every engine, both precisions; the output is printed (no files).
# Usage, from the repository root on the GPU machine: bash docs/benchmarks/h200-2026-11-30-stp/run3.sh
set -u
t0=$(date +%s)
mkdir -p /tmp/icd /tmp/stp
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
echo "$nv" >/tmp/icd/nvidia.icd
cmake -S . -B bs -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENCL=ON \
    -DHINESBATCH_MECHANISMS="$PWD/tests/nmodl/mod/stp.mod" >/tmp/stp/build.log 2>&1 &&
    cmake --build bs -j 16 --target hinesbatch_static >>/tmp/stp/build.log 2>&1 || { tail -20 /tmp/stp/build.log; exit 1; }
ver=$(find bs -name hinesbatch_version.h -not -path '*/CMakeFiles/*' | head -1)
priv=$(sed -n 's/^Libs.private: //p' bs/hinesbatch.pc)
for f in point_run stp_net; do
    # shellcheck disable=SC2086
    cc -std=c11 -O1 -I api/include -I "$(dirname "$ver")" tests/nmodl/tcheck/$f.c bs/libhinesbatch.a $priv -lm \
        -o /tmp/stp/$f || exit 1
done
echo "built after $(($(date +%s) - t0)) s"
export OCL_ICD_VENDORS=/tmp/icd HINESBATCH_OPENCL_PLATFORM=NVIDIA HINESBATCH_BACKEND=opencl
for e in 0 1 2; do
    for p in 0 1; do
        b="1e-9 1e-12"
        [ $p = 1 ] && b="1e-3 1e-6"
        tag=stpsyn-nvidia-opencl-engine$e-$([ $p = 1 ] && echo float || echo double)
        # shellcheck disable=SC2086
        timeout 90 /tmp/stp/point_run tests/nmodl/tcheck/soma.swc $e $p /tmp/stp/$tag.csv StpSyn 0.002:1,3,3.5,4,6.025,9 &&
            python3 tests/nmodl/tcheck/compare.py /tmp/stp/$tag.csv tests/nmodl/tcheck/stp_reference.csv $tag $b
        timeout 90 /tmp/stp/stp_net tests/nmodl/tcheck/soma.swc $e $p "stpnet${tag#stpsyn}"
    done
done
echo "done in $(($(date +%s) - t0)) s"
