#!/usr/bin/env bash
# gpu.sh: the GPU machine's one entry point: builds once (Release, CUDA and OpenCL, this GPU's architecture), then runs the steps asked for, each under its own time limit.
set -euo pipefail
# shellcheck source=ci/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HB_TAG=gpu
self="$HB_ROOT/ci/gpu.sh"

usage() {
    cat <<'EOF'
Usage: bash ci/gpu.sh [STEP...] [--limit STEP=SECONDS]... OUTDIR
       bash ci/gpu.sh --help

On the GPU machine: configures and builds once into build-gpu/ (Release, CUDA and
OpenCL on, CMAKE_CUDA_ARCHITECTURES = the compute capability nvidia-smi reports),
then runs the steps given, in the order below, each under its own time limit: a
step that reaches it is stopped, and the steps after it still run.

Steps (none given: --tests):
  --tests             CTest, one run per label: cuda, opencl (on NVIDIA's platform),
                      serial, openmp, bench; a failed or skipped test fails the step.
                      Also counts the solves of test_opencl_plans that match the
                      serial oracle bit for bit.
  --perf              apps/perf_thomas: CUDA Thomas against cuSPARSE and a device
                      copy (OUTDIR/perf-thomas.md; docs/perf-thomas.md).
  --bench[=MODE]      `hinesbatch bench` on cuda, cuSPARSE, NVIDIA OpenCL, OpenMP (all
                      cores, OMP_PROC_BIND=close) and serial, then the figures:
                        quick   (default) every suite, sizes cut to fit one call
                        thomas  the thomas and thomas-vbatch suites, full sizes
                        hines   hines-layouts, hines-morphologies, multi, full sizes
                        full    thomas, then hines (more than one 10-minute call)
                        SUITE   one suite at full size: thomas, thomas-vbatch,
                                hines-layouts, hines-morphologies, multi, simulate
                                (simulate: cuda, opencl and openmp unless
                                --bench-args names --backend; its own CSV
                                columns, no figures)
  --bench-args 'ARGS' with --bench=SUITE: only these points of it, e.g.
                      --bench=thomas --bench-args '--precision float --rows 4096'
  --strategies[=GRP]  per-system, branch-level, fine-tree, cell-group and auto at the
                      points of GRP = SYSTEMS=MORPH[,MORPH...] (repeat for more groups); with no
                      group, 256,2560,25600=nrn__c91662,mix:real,levels:512:2,levels:512:4
  --sanitize[=TOOLS]  compute-sanitizer on every CUDA test binary (test_opencl_* aside),
                      TOOLS a comma list of memcheck, racecheck (default: both),
                      initcheck, synccheck; racecheck leaves out test_sim*.
  --legacy[=MODE]     CUDA 11.8 from Debian 12's non-free (as root), built for sm_37
                      and sm_60 into build-legacy-cuda/, both checked in the fat binary.
                      MODE: install, build or all (default). Needs no GPU, no main build.
Options:
  --limit STEP=SECONDS  a step's time limit (default: build 420, tests 300, perf 240,
                      bench 420 quick / 1500 full / 560 else, strategies 300,
                      sanitize 480, legacy 900), cut to what is left of HB_CALL_S.
  -h, --help          this text; nothing is built.

OUTDIR receives (at most 8 files, what one device call returns):
  summary.txt       machine, commit, build, every step's result (pass/fail counts)
  logs.tar.gz       logs/: configure, build, ctest-LABEL, sanitizer-TOOL, perf,
                    legacy logs; logs/figures/: the bench figures (PNG)
  bench.csv bench.log headline.md              (--bench)
  strategies.csv strategies.log                (--strategies; the bench CSV with a
                                                first column, morphology)
  perf-thomas.md                               (--perf)
Exit status 0 only when every step ran and passed.

Environment:
  HB_COMMIT             the commit to name (the device machine's copy has no .git)
  HB_CALL_S             seconds the whole call may take (default 570: device calls
                        end at 600); steps get what is left; 0: no overall limit
  HB_CUDA_ARCH          build for this compute capability without asking nvidia-smi
  HINESBATCH_DEVICE     the GPU nvidia-smi is asked about (default 0)
  HB_GPU_BUILD_DIR      the build directory (default build-gpu)
  HB_GPU_CMAKE_ARGS     extra configure arguments
  HB_GPU_WITH_CUDA      ON (default); AUTO: if the library does not build with
                        CUDA, build again with CUDA off so the OpenCL steps still run
  HINESBATCH_OPENCL_PLATFORM  the OpenCL platform (default NVIDIA)
  HB_GPU_TEST_LABELS    --tests' labels (default "cuda opencl serial openmp bench")
  HB_SANITIZE_TESTS     --sanitize's test binaries (names, default every one)
  HB_TEST_SEED          the sanitizer runs' test seed (default 12345)
  HB_BENCH_ARGS         as --bench-args; HB_BENCH_SEED the bench seed (20261122)
  HB_BENCH_FULL=1 HB_BENCH_PART=thomas|hines|SUITE  as --bench=PART (the former
                        ci/gpu-bench.sh's knobs; --bench=MODE wins)
  HB_STRATEGY_BACKENDS  --strategies' backends (default cuda,opencl,openmp)
  HB_STRATEGY_CTEST     with --strategies and no --tests: run --tests with these
                        labels first (e.g. "cuda opencl"), on the same build
  HB_LEGACY_BUILD_DIR   --legacy's build directory (default build-legacy-cuda)

Examples:
  bash ci/gpu.sh --tests "$OUT"                       # CUDA, NVIDIA OpenCL, CPU suites
  bash ci/gpu.sh --tests --sanitize "$OUT"            # + compute-sanitizer (docs/cuda.md)
  bash ci/gpu.sh --perf "$OUT"                        # perf_thomas (docs/perf-thomas.md)
  bash ci/gpu.sh --bench "$OUT"                       # benchmarks, cut sizes
  bash ci/gpu.sh --bench=thomas "$OUT"                # full sizes: one call for thomas,
  bash ci/gpu.sh --bench=hines "$OUT"                 #   the next for hines
  bash ci/gpu.sh --strategies=131072,256000=mix:real,levels:512:4 "$OUT"
  HB_STRATEGY_BACKENDS=cuda bash ci/gpu.sh --tests --strategies "$OUT"
  bash ci/gpu.sh --tests --sanitize=memcheck "$OUT"   # with HB_SANITIZE_TESTS="..."
EOF
}

# ---- helpers of the steps ---------------------------------------------------

# exe NAME: the built program NAME (apps/, tests/ or wherever CMake put it in the
# build tree); prints nothing when it was not built.
exe() {
    local f
    for f in "$build/apps/$1" "$build/tests/$1" "$build/$1"; do
        if [ -f "$f" ] && [ -x "$f" ]; then
            echo "$f"
            return 0
        fi
    done
    find "$build" -path "$logs" -prune -o -name CMakeFiles -prune -o -name 'install_consumer*' -prune \
        -o -type f -perm -u+x -name "$1" -print 2>/dev/null | sed -n 1p
}

# test_binaries: every test program in the build tree, one a line.
test_binaries() {
    find "$build" -path "$logs" -prune -o -name CMakeFiles -prune -o -name 'install_consumer*' -prune \
        -o -type f -perm -u+x -name 'test_*' -print 2>/dev/null | sort
}

# lines N FILE: how many lines FILE has, less N (0 for a missing file).
lines() {
    local n=0
    if [ -f "$2" ]; then
        n=$(wc -l <"$2")
    fi
    echo $((n > $1 ? n - $1 : 0))
}

# indent: the lines of stdin, indented, into the summary and on stdout.
indent() {
    local line
    while IFS= read -r line; do
        printf '    %s\n' "$line" | tee -a "$HB_SUMMARY"
    done
}

# ---- the steps: each runs in its own process (run_step), under its own limit -----

# build: configure and build everything once; status 1 when some targets failed
# (the others still run), 2 when the library or configure failed.
step_build() {
    local cuda=${HB_GPU_WITH_CUDA:-ON} rc=0 t0 broken backends
    t0=$(hb_now)
    configure_and_build "$cuda" || rc=$?
    if [ "$rc" -ge 2 ] && [ "$cuda" = AUTO ]; then
        say "build: the library did not build with CUDA; again with CUDA off (HB_GPU_WITH_CUDA=AUTO)"
        rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
        rc=0
        configure_and_build OFF || rc=$?
    fi
    backends=$(sed -n 's/^-- hinesbatch backends: //p' "$logs/configure.log" | sed -n 1p)
    broken=$(sed -n 's/.*\(\*\*\* \[\|FAILED: \).*CMakeFiles\/\([A-Za-z0-9_]*\)\.dir.*/\2/p' \
        "$logs/build.log" 2>/dev/null | sort -u | tr '\n' ' ')
    say "build: status $rc in $(($(hb_now) - t0)) s; backends: ${backends:-?};" \
        "$(grep -c 'warning:' "$logs/build.log" 2>/dev/null || true) compiler warnings${broken:+; targets that failed: $broken}"
    if [ "$rc" -ne 0 ]; then
        grep -E "error:|Error [0-9]|CMake Error" "$logs/configure.log" "$logs/build.log" 2>/dev/null |
            sed -n 1,20p | indent || true
    fi
    if [ "$rc" -lt 2 ] && [ -n "$(exe hinesbatch)" ]; then
        "$(exe hinesbatch)" devices 2>&1 | indent || true
    fi
    return "$rc"
}

# configure_and_build CUDA(ON|AUTO|OFF): status 3: configure failed; 2: no library;
# 1: some other target failed (the build keeps going past it); 0: all built.
configure_and_build() {
    local keep=(-k) lib
    # shellcheck disable=SC2086 # the extra arguments are lists of words
    cmake -S "$HB_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA="$1" \
        -DHINESBATCH_WITH_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES="$HB_CUDA_ARCH" \
        ${HB_CL_CMAKE_ARGS:-} ${HB_GPU_CMAKE_ARGS:-} >"$logs/configure.log" 2>&1 || {
        tail -30 "$logs/configure.log"
        return 3
    }
    # A library left from an earlier build must not pass for this one.
    find "$build" -maxdepth 3 \( -name 'libhinesbatch.a' -o -name 'libhinesbatch.so*' \) \
        -not -path '*/install_consumer*' -delete 2>/dev/null || true
    [ -f "$build/build.ninja" ] && keep=(-k 0)
    if cmake --build "$build" -j "$(hb_jobs)" -- "${keep[@]}" >"$logs/build.log" 2>&1; then
        return 0
    fi
    lib=$(find "$build" -maxdepth 3 -name 'libhinesbatch.a' -not -path '*/install_consumer*' | sed -n 1p)
    [ -n "$lib" ] || return 2
    return 1
}

# tests: one CTest run per label, each with the time left less 20 s per label after it.
step_tests() {
    local labels label log n i=0 t rc fail=0 total failed skipped t0 dev same all
    read -ra labels <<<"${HB_GPU_TEST_LABELS:-cuda opencl serial openmp bench}"
    n=${#labels[@]}
    for label in "${labels[@]}"; do
        i=$((i + 1))
        t=$(($(hb_step_left) - 20 * (n - i) - 5))
        if [ "$t" -lt 20 ]; then
            say "ctest -L $label: not run (no time left in the step)"
            fail=1
            continue
        fi
        log="$logs/ctest-$label.log"
        rc=0
        t0=$(hb_now)
        timeout -k 10 "$t" ctest --test-dir "$build" -L "^$label\$" -j "$(($(hb_jobs) < 8 ? $(hb_jobs) : 8))" \
            --timeout 300 --output-on-failure >"$log" 2>&1 || rc=$?
        total=$(sed -n 's/.*tests passed.* out of \([0-9]*\).*/\1/p' "$log" | sed -n '$p')
        failed=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | sed -n '$p')
        skipped=$(grep -c '\*\*\*Skipped' "$log" || true)
        total=${total:-0} failed=${failed:-0}
        say "ctest -L $label: $((total - failed - skipped)) passed, $failed failed, $skipped skipped" \
            "of $total in $(($(hb_now) - t0)) s$([ "$rc" -eq 124 ] && echo ", STOPPED at its limit of $t s")"
        # The tests that did not pass, one a line: "test_x.cuda (Failed)".
        sed -n 's/.*Test *#[0-9]*: \([^ ]*\) .*\*\*\*\([A-Za-z]*\( Run\)\{0,1\}\).*/\1 (\2)/p' "$log" |
            sed -n 1,20p | indent
        grep -E 'No tests were found' "$log" | indent || true
        if [ "$rc" -ne 0 ] || [ "$total" -eq 0 ] || [ "$skipped" -ne 0 ] || [ "$failed" -ne 0 ]; then
            fail=1
        fi
    done
    # NVIDIA OpenCL against the serial oracle: the device and the bit-identical solves.
    case " ${labels[*]} " in
    *" opencl "*)
        if [ -n "$(exe test_opencl_plans)" ]; then
            rc=0
            HINESBATCH_BACKEND=opencl timeout -k 10 120 "$(exe test_opencl_plans)" \
                >"$logs/opencl-plans.log" 2>&1 || rc=$?
            dev=$(sed -n 's/^OpenCL context: opencl on //p' "$logs/opencl-plans.log" | sed -n 1p)
            same=$(grep -c 'worst 0 ulp' "$logs/opencl-plans.log" || true)
            all=$(grep -c 'elements differ' "$logs/opencl-plans.log" || true)
            say "test_opencl_plans on ${dev:-an unknown device}: $same of $all solves bit-identical" \
                "to the serial oracle (status $rc)"
        fi ;;
    esac
    return "$fail"
}

# perf: apps/perf_thomas, the CUDA Thomas record against cuSPARSE (docs/perf-thomas.md).
step_perf() {
    local perf rc=0
    perf=$(exe perf_thomas)
    if [ -z "$perf" ]; then
        say "perf: perf_thomas was not built (no CUDA or no cuSPARSE?)"
        return 1
    fi
    "$perf" "$out/perf-thomas.md" >"$logs/perf.log" 2>&1 || rc=$?
    cat "$logs/perf.log"
    if [ "$rc" -eq 0 ]; then
        say "perf: perf_thomas passed; its table is perf-thomas.md"
    else
        say "perf: perf_thomas FAILED (status $rc; logs/perf.log)"
    fi
    return "$rc"
}

# bench: the suites of HB_GPU_BENCH_MODE, each appended to OUTDIR/bench.csv as it ends
# (so a run cut short still returns its rows), then the figures and headline.md.
step_bench() {
    local mode=$HB_GPU_BENCH_MODE cli fail=0 common
    local csv="$out/bench.csv" log="$out/bench.log"
    cli=$(exe hinesbatch)
    [ -n "$cli" ] || { say "bench: the hinesbatch program was not built"; return 1; }
    : >"$csv"
    : >"$log"
    {
        echo "$HB_TAG: date $(date -u +%Y-%m-%dT%H:%MZ), commit $HB_GPU_COMMIT"
        echo "$HB_TAG: GPU: $HB_GPU_INFO; CPU: $(cpu_name), $(hb_jobs) cores"
        "$cli" devices 2>&1 || true
    } >>"$log"
    blog "bench: mode $mode${HB_GPU_BENCH_ARGS:+, points: $HB_GPU_BENCH_ARGS}"
    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(hb_jobs)}
    # Every compiled backend that opens (the log lists any that did not). The cut
    # sizes (quick): points above 2^25 rows skipped, except the reference point
    # 256,000 x 512 run on its own; thomas-vbatch, hines-layouts and
    # hines-morphologies stop at 80,000 / 65,536 / 25,600 systems; serial up to 2^23
    # rows. The full sizes: serial up to 2^25 rows, points up to 2^31.
    if [ "$mode" = quick ]; then
        common=(--serial-max-rows 8388608 --max-rows 33554432)
    else
        common=(--serial-max-rows 33554432 --max-rows 2147483648)
    fi
    common+=(--wall-cap 0.5 --target-s 0.1 --seed "${HB_BENCH_SEED:-20261122}")
    # Each suite's budget is the smaller of its own and what the step has left less
    # what the suites after it are promised; time one suite saves goes to the next.
    if [ -n "$HB_GPU_BENCH_ARGS" ]; then
        # shellcheck disable=SC2086 # the points' options are a list of words
        suite "$mode" 100000 15 --suite "$mode" $HB_GPU_BENCH_ARGS || fail=1
    else
        case "$mode" in
        quick)
            suite thomas 130 235 --suite thomas || fail=1
            suite thomas-reference 40 195 --suite thomas --systems 256000 --rows 512 \
                --max-rows 134217728 || fail=1
            suite thomas-vbatch 45 150 --suite thomas-vbatch --systems 256,2560,25600,80000 || fail=1
            suite hines-layouts 50 100 --suite hines-layouts --systems 256,2560,25600,65536 || fail=1
            suite hines-morphologies 35 65 --suite hines-morphologies --systems 256,2560,25600 || fail=1
            suite multi 45 20 --suite multi || fail=1 ;;
        thomas) bench_thomas 0 || fail=1 ;;
        hines) bench_hines || fail=1 ;;
        # The hines suites took about 500 s at full size on an H200 (2026-11-23).
        full)
            bench_thomas 515 || fail=1
            bench_hines || fail=1 ;;
        # Serial would take most of an hour at 10,000 cells: the other backends.
        simulate) suite simulate 100000 15 --suite simulate --backend cuda,opencl,openmp || fail=1 ;;
        *) suite "$mode" 100000 15 --suite "$mode" || fail=1 ;;
        esac
    fi
    blog "bench: bench.csv: $(lines 1 "$csv") rows"
    # The simulate suite's CSV has columns of its own, which plot_bench.py does not read.
    if [ "$(lines 1 "$csv")" -gt 0 ] && [ "$mode" != simulate ]; then
        mkdir -p "$logs/figures"
        local py
        if ! py=$(hb_plot_python 2>>"$log"); then
            blog "bench: no python3 with matplotlib: no figures (bench.log)"
            fail=1
        elif ! "$py" "$HB_ROOT/apps/plot_bench.py" "$csv" --out "$logs/figures" \
            --headline "$out/headline.md" \
            --title "$(date -u +%Y-%m-%d), commit $HB_GPU_COMMIT" >>"$log" 2>&1; then
            blog "bench: plot_bench.py failed (its output is in bench.log)"
            fail=1
        fi
    fi
    return "$fail"
}

# bench_thomas LATER: the thomas suites at full size, LATER s promised to what follows.
bench_thomas() {
    local rc=0
    suite thomas 100000 $((130 + $1)) --suite thomas || rc=1
    suite thomas-vbatch 100000 $((15 + $1)) --suite thomas-vbatch || rc=1
    return "$rc"
}

# bench_hines: the hines suites at full size.
bench_hines() {
    local rc=0
    suite hines-layouts 100000 300 --suite hines-layouts || rc=1
    suite hines-morphologies 100000 110 --suite hines-morphologies || rc=1
    suite multi 100000 15 --suite multi || rc=1
    return "$rc"
}

# suite NAME BUDGET PROMISE ARGS...: one bench run of --max-seconds min(BUDGET, left -
# PROMISE), stopped outright 60 s after that; its rows appended to bench.csv.
suite() {
    local name=$1 budget=$2 promise=$3 left rc=0 t0 part="$logs/bench-$1.csv"
    shift 3
    left=$(($(hb_step_left) - promise))
    budget=$((budget < left ? budget : left))
    if [ "$budget" -lt 5 ]; then
        blog "bench: suite $name: not run (no time left in the step)"
        return 1
    fi
    t0=$(hb_now)
    rm -f "$part"
    echo "### suite $name" >>"$out/bench.log"
    timeout -k 10 $((budget + 60)) "$(exe hinesbatch)" bench "${common[@]}" --max-seconds "$budget" "$@" \
        --csv "$part" 2>>"$out/bench.log" || rc=$?
    if [ -s "$part" ]; then
        if [ -s "$out/bench.csv" ]; then
            tail -n +2 "$part" >>"$out/bench.csv"
        else
            cp "$part" "$out/bench.csv"
        fi
    fi
    blog "bench: suite $name: rc $rc, $(($(hb_now) - t0)) s, $(lines 1 "$part") rows"
    return "$rc"
}

# blog MESSAGE: said, and in bench.log.
blog() {
    say "$*"
    echo "$HB_TAG: $*" >>"$out/bench.log"
}

cpu_name() {
    sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | sed -n 1p
}

# strategies: one bench run per group and morphology, every strategy, double;
# OUTDIR/strategies.csv is the bench CSV with the morphology in front (the bench's
# columns do not name it), read by apps/strategy_table.py.
step_strategies() {
    local cli group sys morph morphs left rc fail=0 part="$logs/strategy-group.csv"
    local csv="$out/strategies.csv" log="$out/strategies.log"
    local backends=${HB_STRATEGY_BACKENDS:-cuda,opencl,openmp}
    cli=$(exe hinesbatch)
    [ -n "$cli" ] || { say "strategies: the hinesbatch program was not built"; return 1; }
    : >"$csv"
    : >"$log"
    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(hb_jobs)}
    echo "$HB_TAG: date $(date -u +%Y-%m-%dT%H:%MZ), commit $HB_GPU_COMMIT; GPU: $HB_GPU_INFO" >>"$log"
    slog "strategies: backends $backends"
    for group in $HB_GPU_GROUPS; do
        sys=${group%%=*}
        IFS=, read -ra morphs <<<"${group#*=}"
        for morph in "${morphs[@]}"; do
            # What is left of the step, less 60 s for a point already started.
            left=$(($(hb_step_left) - 60))
            if [ "$left" -le 0 ]; then
                slog "strategies: $sys x $morph: not run (no time left in the step)"
                fail=1
                continue
            fi
            rm -f "$part"
            rc=0
            "$cli" bench --kind hines --backend "$backends" --precision double \
                --strategy per-system,branch-level,fine-tree,cell-group,auto --max-seconds "$left" --wall-cap 0.4 \
                --target-s 0.1 --serial-max-rows 1 --max-rows 2147483648 --seed "${HB_BENCH_SEED:-20261122}" \
                --systems "$sys" --morphology "$morph" --csv "$part" 2>>"$log" || rc=$?
            slog "strategies: $sys x $morph: rc $rc, $(lines 1 "$part") rows"
            [ "$rc" -eq 0 ] || fail=1
            [ -s "$part" ] || continue
            [ -s "$csv" ] || sed -n '1s/^/morphology,/p' "$part" >"$csv"
            awk -v m="$morph" 'NR > 1 { print m "," $0 }' "$part" >>"$csv"
        done
    done
    slog "strategies: strategies.csv: $(lines 1 "$csv") rows"
    return "$fail"
}

# slog MESSAGE: said, and in strategies.log.
slog() {
    say "$*"
    echo "$HB_TAG: $*" >>"$out/strategies.log"
}

# sanitize: compute-sanitizer, one tool after the other, the binaries of one tool in
# parallel. It runs on the Release build of the other steps, not a Debug one: the
# sanitizer instruments the machine code as it runs, so it needs no debug build to
# find out-of-bounds accesses and races, and a second build (with -G, kernels many
# times slower) would cost build time and leave racecheck less time than it needs.
step_sanitize() {
    local tools tool bins=() t name ntools i=0 per pids pn rc n oom checks log errors testfail
    local fail=0 skipped nosum
    if ! command -v compute-sanitizer >/dev/null 2>&1; then
        say "sanitize: no compute-sanitizer on PATH"
        return 1
    fi
    if [ -n "${HB_SANITIZE_TESTS:-}" ]; then
        for name in ${HB_SANITIZE_TESTS//,/ }; do
            t=$(exe "$name")
            if [ -n "$t" ]; then bins+=("$t"); else say "sanitize: no test binary $name"; fail=1; fi
        done
    else
        # test_opencl_* open OpenCL, which the sanitizer does not cover.
        while IFS= read -r t; do
            case "$(basename "$t")" in test_opencl_*) ;; *) bins+=("$t") ;; esac
        done < <(test_binaries)
    fi
    [ "${#bins[@]}" -gt 0 ] || { say "sanitize: no test binaries"; return 1; }
    IFS=, read -ra tools <<<"$HB_GPU_SAN_TOOLS"
    ntools=${#tools[@]}
    for tool in "${tools[@]}"; do
        i=$((i + 1))
        # Each tool may use what the step has left less 90 s for each tool after it
        # (racecheck, test_sim* aside, took 50 s on an H100; memcheck of the
        # simulation tests takes longest).
        per=$(($(hb_step_left) - 10 - 90 * (ntools - i)))
        if [ "$per" -lt 30 ]; then
            say "compute-sanitizer $tool: not run (no time left in the step)"
            fail=1
            continue
        fi
        pids=()
        skipped=""
        for t in "${bins[@]}"; do
            name=$(basename "$t")
            # racecheck checks shared-memory accesses only. The simulation tests
            # launch thousands of small kernels (one set per time step) that use no
            # shared memory, and racecheck did not finish them in 400 s; the
            # shared-memory kernels (block-shared, fine tree) are all exercised by the
            # other binaries, and memcheck still runs the simulation tests.
            if [ "$tool" = racecheck ]; then
                case "$name" in test_sim*)
                    skipped="$skipped $name"
                    continue ;;
                esac
            fi
            HINESBATCH_BACKEND=cuda HB_TEST_ALLOW_SKIP=1 HB_TEST_SEED=${HB_TEST_SEED:-12345} \
                timeout -k 10 "$per" compute-sanitizer --tool "$tool" --error-exitcode 99 "$t" \
                >"$logs/san-$tool-$name.log" 2>&1 &
            pids+=("$!:$name")
        done
        errors=0
        testfail=""
        nosum=""
        for pn in "${pids[@]}"; do
            rc=0
            wait "${pn%%:*}" || rc=$?
            name=${pn#*:}
            log="$logs/san-$tool-$name.log"
            # memcheck ends with "ERROR SUMMARY: N errors", racecheck with
            # "RACECHECK SUMMARY: ... (N errors, M warnings)". test_cuda_plans asks
            # cudaMalloc for 128 TiB on purpose: that reported API error
            # (cudaErrorMemoryAllocation) is expected and not counted.
            n=$(grep -Eo "ERROR SUMMARY: [0-9]+|\([0-9]+ errors" "$log" | sed -n '$p' | grep -Eo "[0-9]+" || true)
            oom=$(grep -c "Program hit cudaErrorMemoryAllocation" "$log" || true)
            checks=$(grep -E 'passed, ' "$log" | sed -n '$p' || true)
            if [ -z "$n" ]; then
                if [ "$rc" -eq 124 ]; then
                    say "compute-sanitizer $tool: $name: STOPPED at its limit of $per s, no summary"
                else
                    say "compute-sanitizer $tool: $name: no sanitizer summary (status $rc)"
                    tail -5 "$log" | indent
                fi
                nosum="$nosum $name"
                continue
            fi
            n=$((n > oom ? n - oom : 0))
            [ "$oom" -eq 0 ] || checks="$checks; $oom expected OOM reports"
            if [ "$n" -ne 0 ]; then
                say "compute-sanitizer $tool: $name: $n errors ($checks)"
                grep -E "^=========" "$log" | sed -n 1,20p | indent || true
                errors=$((errors + n))
            elif [ "$rc" -ne 0 ] && [ "$rc" -ne 99 ]; then
                say "compute-sanitizer $tool: $name: clean, but the test failed (status $rc; $checks)"
                testfail="$testfail $name"
            else
                echo "compute-sanitizer $tool: $name: clean ($checks)"
            fi
        done
        # One log per tool.
        for pn in "${pids[@]}"; do
            echo "=== ${pn#*:}"
            cat "$logs/san-$tool-${pn#*:}.log"
            rm -f "$logs/san-$tool-${pn#*:}.log"
        done >"$logs/sanitizer-$tool.log"
        t="$errors errors in ${#pids[@]} binaries${testfail:+; tests failed:$testfail}"
        say "compute-sanitizer $tool: $t${nosum:+; NO SUMMARY (stopped or crashed):$nosum}${skipped:+; not run on:$skipped}"
        if [ "$errors" -ne 0 ] || [ -n "$testfail$nosum" ]; then
            fail=1
        fi
    done
    return "$fail"
}

# legacy: CUDA 11.8 (Debian 12 non-free) next to the machine's newer toolkit, the CUDA
# backend built for sm_37 (K80) and sm_60 (P100). The toolkit goes where Debian puts it
# (/usr/bin/nvcc, /usr/include, /usr/lib/x86_64-linux-gnu); a CUDA 12/13 toolkit under
# /usr/local/cuda is left alone, and this build names /usr/bin/nvcc explicitly.
step_legacy() {
    local mode=$HB_GPU_LEGACY_MODE lbuild=${HB_LEGACY_BUILD_DIR:-$HB_ROOT/build-legacy-cuda}
    local log="$logs/legacy.log" host inc pkg f lib archs cuobj
    if [ "$mode" = install ] || [ "$mode" = all ]; then
        if [ "$(id -u)" -ne 0 ]; then
            say "legacy: the install needs root (apt-get, /etc/apt/sources.list.d)"
            return 1
        fi
        # non-free in its own sources file, so the main sources file stays as it was.
        cat >/etc/apt/sources.list.d/hinesbatch-nonfree.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
        {
            apt-get update -q &&
                DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                    nvidia-cuda-toolkit nvidia-cuda-toolkit-gcc &&
                { dpkg -L nvidia-cuda-toolkit | grep -E '^/usr/(bin|lib)/' | sed -n 1,20p || true; }
        } >>"$log" 2>&1 || { tail -20 "$log"; say "legacy: the install failed"; return 1; }
        say "legacy: installed: $(/usr/bin/nvcc --version | sed -n 's/.*\(release [0-9.]*\).*/CUDA \1/p')"
    fi
    if [ "$mode" = build ] || [ "$mode" = all ]; then
        # CUDA 11.8 accepts host compilers up to GCC 11: Debian's cuda-g++ wrapper
        # (nvidia-cuda-toolkit-gcc) points at g++-11.
        host=$(command -v cuda-g++ || command -v g++-11 || echo g++)
        # Debian's nvcc finds ptxas, fatbinary and nvlink on PATH: keep a newer
        # toolkit's bin (e.g. /usr/local/cuda/bin) out of it.
        export PATH=/usr/lib/nvidia-cuda-toolkit/bin:/usr/sbin:/usr/bin:/sbin:/bin
        cuobj=$(command -v cuobjdump || echo /usr/bin/cuobjdump)
        rm -rf "$lbuild"
        # Debian's 11.8 headers live in /usr/include, which the host compiler searches
        # after /usr/local/include: where a newer toolkit's headers are linked into
        # /usr/local/include (as on this project's CI image), they would win. A
        # directory of links to the 11.8 headers, passed with -I, puts them first.
        inc="$lbuild/cuda-11.8-include"
        mkdir -p "$inc"
        for pkg in nvidia-cuda-dev libcub-dev libthrust-dev libcu++-dev; do
            { dpkg -L "$pkg" 2>/dev/null || true; } | { grep -E '^/usr/include/[^/]+$' || true; } |
                while read -r f; do ln -sf "$f" "$inc/"; done
        done
        {
            cmake -S "$HB_ROOT" -B "$lbuild" -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
                -DCMAKE_CUDA_COMPILER=/usr/bin/nvcc -DCMAKE_CUDA_HOST_COMPILER="$host" \
                -DCMAKE_CUDA_FLAGS="-I$inc" -DCUDAToolkit_ROOT=/usr -DCMAKE_CUDA_ARCHITECTURES="37;60" &&
                cmake --build "$lbuild" -j "$(hb_jobs)"
        } >>"$log" 2>&1 || { tail -30 "$log"; say "legacy: the build failed (logs/legacy.log)"; return 1; }
        # Both architectures must be in the library's fat binary.
        lib=$(find "$lbuild" -maxdepth 3 -name 'libhinesbatch.so' | sed -n 1p)
        archs=$("$cuobj" --list-elf "${lib:-$lbuild/libhinesbatch.so}" 2>>"$log" |
            sed -n 's/.*\(sm_[0-9]*\).*/\1/p' | sort -u | tr '\n' ' ' || true)
        say "legacy: nvcc $(/usr/bin/nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), host $host," \
            "SASS in libhinesbatch.so: ${archs:-none}"
        case "$archs" in
        *sm_37*sm_60*) say "legacy: OK" ;;
        *) say "legacy: FAILED: missing an architecture"; return 1 ;;
        esac
    fi
}

# ---- a step's own process: run_step calls this script back with HB_GPU_STEP -------
if [ -n "${HB_GPU_STEP:-}" ]; then
    out=$HB_GPU_OUT build=$HB_GPU_BUILD logs=$HB_GPU_LOGS
    cd "$HB_ROOT"
    "step_$HB_GPU_STEP"
    exit
fi

# ---- the call: arguments ------------------------------------------------------
die_usage() {
    echo "gpu.sh: $*" >&2
    echo "(bash ci/gpu.sh --help prints the usage)" >&2
    exit 2
}

declare -A want=() limit=()
bench_mode="" bench_args=${HB_BENCH_ARGS:-} groups=() san_tools=memcheck,racecheck legacy_mode=all out=""
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) usage; exit 0 ;;
    --tests | --perf) want[${1#--}]=1 ;;
    --bench) want[bench]=1 ;;
    --bench=*) want[bench]=1; bench_mode=${1#*=} ;;
    --bench-args) [ $# -ge 2 ] || die_usage "--bench-args needs a value"; bench_args=$2; shift ;;
    --bench-args=*) bench_args=${1#*=} ;;
    --strategies) want[strategies]=1 ;;
    --strategies=*) want[strategies]=1; groups+=("${1#*=}") ;;
    --sanitize) want[sanitize]=1 ;;
    --sanitize=*) want[sanitize]=1; san_tools=${1#*=} ;;
    --legacy) want[legacy]=1 ;;
    --legacy=*) want[legacy]=1; legacy_mode=${1#*=} ;;
    --limit) [ $# -ge 2 ] || die_usage "--limit needs STEP=SECONDS"; set -- "$1=$2" "${@:3}"; continue ;;
    --limit=*)
        kv=${1#--limit=}
        case "$kv" in
        build=* | tests=* | perf=* | bench=* | strategies=* | sanitize=* | legacy=*) ;;
        *) die_usage "--limit $kv: no such step (build tests perf bench strategies sanitize legacy)" ;;
        esac
        case "${kv#*=}" in '' | *[!0-9]*) die_usage "--limit $kv: SECONDS must be a number" ;; esac
        limit[${kv%%=*}]=${kv#*=} ;;
    -*) die_usage "unknown option $1" ;;
    *) [ -z "$out" ] || die_usage "one OUTDIR only (got $out and $1)"; out=$1 ;;
    esac
    shift
done
[ -n "$out" ] || die_usage "OUTDIR missing"
if [ ${#want[@]} -eq 0 ]; then
    want[tests]=1
fi
if [ -n "${want[bench]:-}" ]; then
    if [ -z "$bench_mode" ]; then
        bench_mode=quick
        [ "${HB_BENCH_FULL:-0}" = 1 ] && bench_mode=${HB_BENCH_PART:-thomas}
    fi
    case "$bench_mode" in
    quick | full | hines) [ -z "$bench_args" ] ||
        die_usage "--bench-args selects points of one suite: give --bench=SUITE, not --bench=$bench_mode" ;;
    thomas | thomas-vbatch | hines-layouts | hines-morphologies | multi | simulate) ;;
    *) die_usage "--bench=$bench_mode: MODE is quick, full, thomas, hines or a suite" ;;
    esac
elif [ -n "$bench_args" ] && [ -z "${HB_BENCH_ARGS:-}" ]; then
    die_usage "--bench-args without --bench"
fi
for tool in ${san_tools//,/ }; do
    case "$tool" in memcheck | racecheck | initcheck | synccheck) ;;
    *) die_usage "--sanitize=$san_tools: TOOLS are memcheck, racecheck, initcheck, synccheck" ;;
    esac
done
case "$legacy_mode" in install | build | all) ;; *) die_usage "--legacy=$legacy_mode: MODE is install, build or all" ;; esac
for group in "${groups[@]}"; do
    case "$group" in
    [0-9]*=?*) ;;
    *) die_usage "--strategies=$group: a group is SYSTEMS=MORPH[,MORPH...], e.g. 256,2560=mix:real" ;;
    esac
done
[ ${#groups[@]} -gt 0 ] || groups=("256,2560,25600=nrn__c91662,mix:real,levels:512:2,levels:512:4")
# The former ci/gpu-strategies.sh's HB_STRATEGY_CTEST: its labels' tests first.
if [ -n "${want[strategies]:-}" ] && [ -n "${HB_STRATEGY_CTEST:-}" ] && [ -z "${want[tests]:-}" ]; then
    want[tests]=1
    HB_GPU_TEST_LABELS=$HB_STRATEGY_CTEST
fi

default_limit() {
    case "$1" in
    build) echo 420 ;;
    tests) echo 300 ;;
    perf) echo 240 ;;
    bench) case "$bench_mode" in quick) echo 420 ;; full) echo 1500 ;; *) echo 560 ;; esac ;;
    strategies) echo 300 ;;
    sanitize) echo 480 ;;
    legacy) echo 900 ;;
    esac
}

# ---- the call: set-up ---------------------------------------------------------
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=${HB_GPU_BUILD_DIR:-$HB_ROOT/build-gpu}
logs=$build/logs
rm -rf "$logs"
mkdir -p "$logs"
export HB_SUMMARY="$out/summary.txt"
: >"$HB_SUMMARY"
call_t0=$(hb_now)
call_s=${HB_CALL_S:-570}
HB_GPU_COMMIT=$(hb_commit)
export HB_GPU_OUT="$out" HB_GPU_BUILD="$build" HB_GPU_LOGS="$logs" HB_GPU_COMMIT
export HB_GPU_BENCH_MODE="$bench_mode" HB_GPU_BENCH_ARGS="$bench_args" HB_GPU_GROUPS="${groups[*]}"
export HB_GPU_SAN_TOOLS="$san_tools" HB_GPU_LEGACY_MODE="$legacy_mode" HB_GPU_TEST_LABELS="${HB_GPU_TEST_LABELS:-}"
[ -n "$HB_GPU_TEST_LABELS" ] || unset HB_GPU_TEST_LABELS

# pack: every log (and the figures) into OUTDIR/logs.tar.gz; after each step, so a
# call cut short still returns what was done.
pack() {
    tar -C "$build" -czf "$out/logs.tar.gz" logs 2>/dev/null || true
}

# run_step NAME: this script again, for step NAME alone, under the step's limit
# (--limit, else its default), cut to what is left of HB_CALL_S less 10 s to pack.
run_step() {
    local name=$1 lim rc=0 left
    lim=${limit[$name]:-$(default_limit "$name")}
    if [ "$call_s" -gt 0 ]; then
        left=$((call_s - ($(hb_now) - call_t0) - 10))
        lim=$((lim < left ? lim : left))
    fi
    if [ "$lim" -lt 30 ]; then
        say "step $name: NOT RUN: ${lim} s left of the call's HB_CALL_S=$call_s"
        return 1
    fi
    hb_step "$name" "$lim" env HB_GPU_STEP="$name" bash "$self" || rc=$?
    pack
    return "$rc"
}

# The GPU machine's OpenCL: container images often carry the driver's
# libnvidia-opencl but no /etc/OpenCL/vendors/nvidia.icd; then it is registered for
# this call only (an ICD folder in the build tree). With no CL/cl.h on the system,
# CUDA's OpenCL headers and library are passed to cmake (HB_CL_CMAKE_ARGS).
opencl_setup() {
    local lib f cuda_dir cl_lib
    if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
        lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libnvidia-opencl\.so\.1 .*=> \(.*\)/\1/p' | sed -n 1p)
        if [ -n "$lib" ]; then
            mkdir -p "$build/icd"
            echo "$lib" >"$build/icd/nvidia.icd"
            for f in /etc/OpenCL/vendors/*.icd; do
                if [ -e "$f" ]; then cp "$f" "$build/icd/"; fi
            done
            export OCL_ICD_VENDORS="$build/icd"
            say "OpenCL: registered the NVIDIA ICD for this call: $lib"
        else
            say "WARNING: no NVIDIA OpenCL ICD and no libnvidia-opencl.so.1 found"
        fi
    fi
    HB_CL_CMAKE_ARGS=""
    if [ ! -e /usr/include/CL/cl.h ]; then
        for cuda_dir in ${CUDA_HOME:-} /usr/local/cuda; do
            if [ -e "$cuda_dir/include/CL/cl.h" ]; then
                cl_lib=$(find "$cuda_dir/lib64/" "$cuda_dir"/targets/*/lib/ -maxdepth 1 -name 'libOpenCL.so*' \
                    2>/dev/null | sed -n 1p)
                HB_CL_CMAKE_ARGS="-DOpenCL_INCLUDE_DIR=$cuda_dir/include${cl_lib:+ -DOpenCL_LIBRARY=$cl_lib}"
                break
            fi
        done
    fi
    export HB_CL_CMAKE_ARGS
    # PoCL beside NVIDIA: its settings and cache in the build tree.
    # shellcheck source=ci/opencl-env.sh
    . "$HB_ROOT/ci/opencl-env.sh" "$build" >>"$logs/opencl.log"
    export HINESBATCH_OPENCL_PLATFORM=${HINESBATCH_OPENCL_PLATFORM:-NVIDIA}
    export OMP_PROC_BIND=${OMP_PROC_BIND:-close}
    {
        echo "ICDs: $(cat /etc/OpenCL/vendors/*.icd ${OCL_ICD_VENDORS:+"$OCL_ICD_VENDORS"/*.icd} 2>/dev/null | tr '\n' ' ')"
        if command -v clinfo >/dev/null 2>&1; then clinfo -l 2>&1 || true; fi
    } >>"$logs/opencl.log"
}

# ---- the call: the steps ------------------------------------------------------
steps=""
for s in tests perf bench strategies sanitize legacy; do
    if [ -n "${want[$s]:-}" ]; then
        steps="$steps $s"
        [ "$s" = bench ] && steps="$steps=$bench_mode"
    fi
done
say "date $(date -u +%Y-%m-%dT%H:%MZ), commit $HB_GPU_COMMIT; steps:$steps; OUTDIR $out"
failed=""
gpu_steps=""
for s in tests perf bench strategies sanitize; do
    if [ -n "${want[$s]:-}" ]; then gpu_steps="$gpu_steps $s"; fi
done
if [ -n "$gpu_steps" ]; then
    if ! hb_gpu_query; then
        say "FAIL: the steps$gpu_steps need an NVIDIA GPU; not run"
        exit 1
    fi
    say "GPU: $HB_GPU_INFO; building for sm_$HB_CUDA_ARCH"
    say "CPU: $(cpu_name), $(hb_jobs) cores;" \
        "$( (nvcc --version 2>/dev/null || echo 'no nvcc on PATH') | sed -n '$p')"
    opencl_setup
    brc=0
    run_step build || brc=$?
    if [ "$brc" -eq 0 ] || [ "$brc" -eq 1 ]; then
        [ "$brc" -eq 0 ] || failed="$failed build"
        for s in $gpu_steps; do
            run_step "$s" || failed="$failed $s"
        done
    else
        say "the build failed: not run:$gpu_steps"
        failed="$failed build$gpu_steps"
    fi
fi
if [ -n "${want[legacy]:-}" ]; then
    run_step legacy || failed="$failed legacy"
fi
pack
if [ -z "$failed" ]; then
    say "done in $(($(hb_now) - call_t0)) s: PASS"
else
    say "done in $(($(hb_now) - call_t0)) s: FAIL (${failed# })"
    exit 1
fi
