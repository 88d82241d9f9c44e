#!/bin/bash
# gpu-bench.sh: on the GPU machine: build, run the benchmark suites on cuda, NVIDIA OpenCL, openmp (all cores) and serial (capped), plot.
# Usage: ci/gpu-bench.sh [outdir]   (default $OUT, else build-gpu-bench/out)
# Writes to outdir, 8 files at most (the device tool returns no more):
#   bench.csv      every suite's rows in one CSV (one header)
#   bench.log      machine, commit, build summary, stderr of every run (setup
#                  times, skipped points, cuSPARSE details), timings per suite
#   speedup_thomas.png speedup_hines.png fraction_of_copy.png cusparse_ratio.png
#   headline.md    the headline ratios (plot_bench.py --headline) for docs/benchmarks
# Sized to finish in about 8 minutes (build ~1.5 min, suites ~6 min): each
# suite has its own time budget (--max-seconds; points left when it is spent are
# listed in bench.log as skipped). What this cuts from the issue's full suites:
#   * points above 2^25 rows (33.5M) are skipped (--max-rows), except the
#     reference point 256,000 x 512 (float, double) run on its own: that drops
#     256,000 x 256 and 20,000 x 2,048..8,192 from thomas;
#   * thomas-vbatch, hines-layouts and hines-morphologies stop at 80,000 /
#     65,536 / 25,600 systems instead of 256,000; multi goes 64..32,768 cells;
#   * serial runs up to 2^23 rows (8.4M) only (its speedup column is empty above);
#   * reps stop at 0.5 s of wall time per backend and point (--wall-cap 0.5).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${OUT:-$src/build-gpu-bench/out}}
build=${HB_GPU_BUILD_DIR:-$src/build-gpu-bench}
mkdir -p "$out" "$build"
log=$out/bench.log
csv=$out/bench.csv
t_start=$(date +%s)
# The device machine's copy of the tree has no .git: pass HB_COMMIT=<hash>.
commit=${HB_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)}
say() { echo "gpu-bench: $*" | tee -a "$log"; }

: >"$log"
# Only a tree that is a git checkout can tell whether it has uncommitted changes.
dirty=""
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1 && ! git -C "$src" diff --quiet; then
    dirty=" (with uncommitted changes)"
fi
say "date $(date -u +%Y-%m-%dT%H:%MZ), commit $commit$dirty"
gpu=$(nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
say "GPU: ${gpu:-none}; CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"

# 1. Build: this GPU's architecture only (fast), CUDA and OpenCL required.
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
    -DHINESBATCH_WITH_OPENCL=ON -DHINESBATCH_BUILD_TESTS=OFF \
    ${cc:+-DCMAKE_CUDA_ARCHITECTURES=$cc} >"$build/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target hinesbatch_cli >>"$build/build.log" 2>&1
if [ $? -ne 0 ]; then
    tail -40 "$build/build.log" | tee -a "$log"
    say "BUILD FAILED"
    exit 1
fi
say "built in $(($(date +%s) - t_start)) s"
bin=$build/apps/hinesbatch
export HINESBATCH_OPENCL_PLATFORM=${HINESBATCH_OPENCL_PLATFORM:-NVIDIA}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} OMP_PROC_BIND=${OMP_PROC_BIND:-close}
"$bin" devices 2>&1 | tee -a "$log"

# 2. Suites: name, time budget (s), extra options; each appends to bench.csv.
# Every compiled backend that opens (the log lists any that did not).
common=(--serial-max-rows 8388608 --max-rows 33554432 --wall-cap 0.5 --target-s 0.1
        --seed "${HB_BENCH_SEED:-20261122}")
fail=0
run_suite() {
    local name=$1 budget=$2
    shift 2
    local t0=$(date +%s)
    echo "### suite $name" >>"$log"
    "$bin" bench "${common[@]}" --max-seconds "$budget" "$@" --csv "$build/$name.csv" \
        2>>"$log"
    local rc=$?
    # Appended as each suite ends, so a run cut short still returns its rows.
    if [ -s "$build/$name.csv" ]; then
        if [ -s "$csv" ]; then tail -n +2 "$build/$name.csv"; else cat "$build/$name.csv"; fi >>"$csv"
    fi
    say "suite $name: rc $rc, $(($(date +%s) - t0)) s, $(($(wc -l <"$build/$name.csv") - 1)) rows"
    [ $rc -eq 0 ] || fail=1
}
: >"$csv"
# HB_BENCH_FULL=1 runs the issue's full sizes with no size cuts, in parts that
# each fit one device call (HB_BENCH_PART=thomas, then hines). Budgets are
# what is left of HB_CALL_S (default 570 s) when a suite starts, less what
# the suites after it are promised, so time one suite saves goes to the next.
left() { echo $(( ${HB_CALL_S:-570} - ($(date +%s) - t_start) - $1 )); }
if [ "${HB_BENCH_FULL:-0}" = 1 ]; then
    common=(--serial-max-rows 33554432 --max-rows 2147483648 --wall-cap 0.5 --target-s 0.1
            --seed "${HB_BENCH_SEED:-20261122}")
    # HB_BENCH_ARGS: selections for one suite's points only, e.g. the points a
    # record lacks (HB_BENCH_PART=thomas HB_BENCH_ARGS="--precision float
    # --systems 200,2000,20000 --rows 4096,8192").
    part=${HB_BENCH_PART:-thomas}
    if [ -n "${HB_BENCH_ARGS:-}" ]; then
        # shellcheck disable=SC2086
        run_suite "$part" "$(left 15)" --suite "$part" $HB_BENCH_ARGS
    else
        case "$part" in
        thomas)
            run_suite thomas "$(left 130)" --suite thomas
            run_suite thomas-vbatch "$(left 15)" --suite thomas-vbatch ;;
        hines)
            run_suite hines-layouts "$(left 300)" --suite hines-layouts
            run_suite hines-morphologies "$(left 110)" --suite hines-morphologies
            run_suite multi "$(left 15)" --suite multi ;;
        *)  # one suite, e.g. HB_BENCH_PART=hines-morphologies
            run_suite "$part" "$(left 15)" --suite "$part" ;;
        esac
    fi
else
    run_suite thomas 130 --suite thomas
    run_suite thomas-reference 40 --suite thomas --systems 256000 --rows 512 --max-rows 134217728
    run_suite thomas-vbatch 45 --suite thomas-vbatch --systems 256,2560,25600,80000
    run_suite hines-layouts 50 --suite hines-layouts --systems 256,2560,25600,65536
    run_suite hines-morphologies 35 --suite hines-morphologies --systems 256,2560,25600
    run_suite multi 45 --suite multi
fi

# 3. The figures and the headline ratios.
say "bench.csv: $(($(wc -l <"$csv") - 1)) rows"
python3 "$src/apps/plot_bench.py" "$csv" --out "$out" --headline "$out/headline.md" \
    --title "$(date -u +%Y-%m-%d), commit $commit" \
    2>&1 | tee -a "$log" || fail=1
say "done in $(($(date +%s) - t_start)) s, status $fail"
exit $fail
