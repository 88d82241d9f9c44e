#!/bin/bash
# gpu-all.sh: one call on the GPU machine: build everything, run the CUDA and NVIDIA OpenCL suites, measure the strategies and the core benchmark points.
# Usage: ci/gpu-all.sh OUTDIR   Writes OUTDIR/summary.txt, OUTDIR/strategies.csv,
# OUTDIR/bench.csv and OUTDIR/logs.tar.gz (every log). Each step has its own
# time limit so that a slow step cannot take the others' results with it.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: ci/gpu-all.sh OUTDIR}
build=$src/build-gpu-all
logs=$build/logs
mkdir -p "$out" "$logs"
summary=$out/summary.txt
say() { echo "gpu-all: $*" | tee -a "$summary"; }
t0=$(date +%s)
# The device machine's copy of the tree has no .git: pass HB_COMMIT=<hash>.
say "date $(date -u +%Y-%m-%dT%H:%MZ), commit ${HB_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
say "GPU: $(nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader | head -1)"
say "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) cores; $(nvcc --version | tail -1)"
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
. "$src/ci/nvidia-icd.sh" "$build"
. "$src/ci/opencl-env.sh" "$build"
export HINESBATCH_OPENCL_PLATFORM=NVIDIA OMP_PROC_BIND=close

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
    -DHINESBATCH_WITH_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES="$cc" ${HB_CL_CMAKE_ARGS:-} \
    >"$logs/configure.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" >"$logs/build.log" 2>&1
say "build rc $? in $(($(date +%s) - t0)) s; $(grep 'hinesbatch backends' "$logs/configure.log")"
"$build/apps/hinesbatch" devices 2>&1 | tee -a "$summary"

for label in cuda opencl; do
    (cd "$build" && timeout 150 ctest -L "$label" -j8 --timeout 140 --output-on-failure) \
        >"$logs/ctest-$label.log" 2>&1
    say "ctest -L $label: $(grep -E 'tests passed' "$logs/ctest-$label.log" | tail -1)"
    grep -E "\(Failed\)|\(Timeout\)|Skipped|\*\*\*" "$logs/ctest-$label.log" | head -20 | tee -a "$summary"
done

# HB_GPU_TESTS_ONLY=1: the suites above and a memcheck of the branch-strategy
# and simulation kernels, no benchmarks.
if [ "${HB_GPU_TESTS_ONLY:-0}" = 1 ]; then
    for t in test_strategies test_sim_backend; do
        HINESBATCH_BACKEND=cuda HB_TEST_SEED=12345 timeout 150 compute-sanitizer --tool memcheck \
            "$build/tests/$t" >"$logs/memcheck-$t.log" 2>&1
        say "memcheck $t: rc $?, $(grep -E 'ERROR SUMMARY' "$logs/memcheck-$t.log" | tail -1), $(grep -E 'passed, ' "$logs/memcheck-$t.log" | tail -1)"
    done
    tar -C "$build" -czf "$out/logs.tar.gz" logs
    say "done in $(($(date +%s) - t0)) s"
    exit 0
fi

# Strategies (issue 6): per-system, branch-level, fine-tree and auto on one real
# neuron replicated, the real mix, and the 512-node synthetic cells of 2-4 levels.
# The full grid to 256,000 cells, with a morphology column: ci/gpu-strategies.sh.
bench() { # name seconds args...
    local name=$1 secs=$2
    shift 2
    local t=$(date +%s)
    timeout $((secs + 30)) "$build/apps/hinesbatch" bench --max-seconds "$secs" --wall-cap 0.4 \
        --target-s 0.1 --serial-max-rows 4194304 --seed 20261122 "$@" \
        --csv "$build/$name.csv" 2>"$logs/bench-$name.log"
    say "bench $name: rc $?, $(($(date +%s) - t)) s, $(($(wc -l <"$build/$name.csv") - 1)) rows"
}
bench strategies 170 --kind hines --backend cuda,opencl,openmp --precision double \
    --systems 256,2560,25600 --strategy per-system,branch-level,fine-tree,auto \
    --morphology nrn__c91662,mix:real,levels:512:2,levels:512:4
bench thomas-ref 60 --suite thomas --backend cuda,opencl,openmp --systems 256,25600,256000 \
    --rows 64,512 --max-rows 134217728
cp "$build/strategies.csv" "$out/strategies.csv" 2>/dev/null
cp "$build/thomas-ref.csv" "$out/bench.csv" 2>/dev/null
tar -C "$build" -czf "$out/logs.tar.gz" logs
say "done in $(($(date +%s) - t0)) s"
