#!/usr/bin/env bash
# lib.sh: sourced by the ci/ entry scripts: repository root, messages, commit name, the GPU query, the time-limited step runner, the CPU build.
# Usage: . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   (sourced, never run: it sets no shell
# options, so the caller's `set -euo pipefail` holds; every function here is safe under it).
#
# Sets HB_ROOT (the repository root, absolute), HB_BUILD (the CPU build directory:
# BUILD_DIR, else build/) and HB_TAG (the name `say` prints: the calling script's,
# without .sh). With HB_SUMMARY set to a file, `say` appends every message to it too.

HB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HB_BUILD=${BUILD_DIR:-$HB_ROOT/build}
HB_TAG=${HB_TAG:-$(basename "$0" .sh)}

# say MESSAGE...: "TAG: MESSAGE" on stdout, and appended to HB_SUMMARY when set.
say() {
    local line="$HB_TAG: $*"
    printf '%s\n' "$line"
    if [ -n "${HB_SUMMARY:-}" ]; then
        printf '%s\n' "$line" >>"$HB_SUMMARY"
    fi
}

# die MESSAGE...: says it on stderr (and in HB_SUMMARY), exits 1.
die() {
    say "ERROR: $*" >&2
    exit 1
}

# hb_usage: the calling script's usage: its leading comment block (line 2 to the first
# line that is no comment), without the "# ".
hb_usage() {
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
}

# hb_no_args "$@": for scripts that take no arguments: -h/--help prints the usage and
# exits 0; any other argument is an error.
hb_no_args() {
    case "${1:-}" in
    -h | --help)
        hb_usage
        exit 0 ;;
    '') ;;
    *) die "no arguments expected (got $*); bash ci/$(basename "$0") --help prints the usage" ;;
    esac
}

# hb_jobs: how many parallel jobs (every core; 2 where nproc is missing).
hb_jobs() {
    nproc 2>/dev/null || echo 2
}

# hb_now: seconds since the epoch.
hb_now() {
    date +%s
}

# hb_commit: the commit the tree is: HB_COMMIT where set (the GPU machine's copy of
# the tree has no .git), else git's short hash, with " (with uncommitted changes)"
# when the checkout differs from it; "unknown" without either.
hb_commit() {
    local c
    if [ -n "${HB_COMMIT:-}" ]; then
        printf '%s\n' "$HB_COMMIT"
    elif c=$(git -C "$HB_ROOT" rev-parse --short HEAD 2>/dev/null); then
        if ! git -C "$HB_ROOT" diff --quiet HEAD -- 2>/dev/null; then
            c="$c (with uncommitted changes)"
        fi
        printf '%s\n' "$c"
    else
        echo unknown
    fi
}

# hb_gpu_query: asks nvidia-smi, once, about GPU HINESBATCH_DEVICE (default 0) and
# exports HB_GPU_INFO ("name, compute capability, driver, memory") and HB_CUDA_ARCH
# (the compute capability without the dot, e.g. 90: the CMAKE_CUDA_ARCHITECTURES to
# build for). An HB_CUDA_ARCH already set wins (a build for a GPU that is not here).
# Returns 1, with a message on stderr, when there is no GPU to ask and no HB_CUDA_ARCH.
hb_gpu_query() {
    local line cc
    if [ -n "${HB_GPU_INFO:-}" ]; then
        return 0
    fi
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        if [ -n "${HB_CUDA_ARCH:-}" ]; then
            export HB_GPU_INFO="none (no nvidia-smi; HB_CUDA_ARCH=$HB_CUDA_ARCH)" HB_CUDA_ARCH
            return 0
        fi
        say "no nvidia-smi on this machine: this needs an NVIDIA GPU and its driver" \
            "(HB_CUDA_ARCH=<compute capability, e.g. 90> builds for one without asking)" >&2
        return 1
    fi
    line=$(nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total \
        --format=csv,noheader -i "${HINESBATCH_DEVICE:-0}" 2>&1 | sed -n 1p) || true
    cc=$(printf '%s' "$line" | cut -d, -f2 | tr -d ' .')
    case "$cc" in
    '' | *[!0-9]*)
        if [ -z "${HB_CUDA_ARCH:-}" ]; then
            say "nvidia-smi gave no compute capability for GPU ${HINESBATCH_DEVICE:-0}: $line" >&2
            return 1
        fi ;;
    esac
    export HB_GPU_INFO="$line" HB_CUDA_ARCH="${HB_CUDA_ARCH:-$cc}"
}

# hb_step NAME SECONDS COMMAND...: runs COMMAND (a program, not a shell function)
# under a time limit: at SECONDS, `timeout` stops it and every process it started (its
# process group), so one slow step cannot take the time of the steps after it.
# COMMAND sees HB_STEP_LIMIT and HB_STEP_T0 (its limit and start, for budgets of its
# own: hb_step_left). Says how the step ended; returns COMMAND's status (124: timed
# out). An interrupt (Ctrl-C, TERM) is passed on to the step, then ends the script.
hb_step() {
    local name=$1 limit=$2 t0 rc=0 pid
    shift 2
    t0=$(hb_now)
    HB_STEP_LIMIT=$limit HB_STEP_T0=$t0 timeout -k 15 "$limit" "$@" &
    pid=$!
    trap 'kill -TERM "$pid" 2>/dev/null; hb_interrupted=1' INT TERM
    while :; do
        rc=0
        wait "$pid" || rc=$?
        kill -0 "$pid" 2>/dev/null || break
    done
    trap - INT TERM
    if [ -n "${hb_interrupted:-}" ]; then
        say "step $name: interrupted after $(($(hb_now) - t0)) s"
        exit 130
    fi
    case "$rc" in
    0) say "step $name: ok in $(($(hb_now) - t0)) s" ;;
    124 | 137) say "step $name: TIMED OUT at its limit of $limit s (stopped)" ;;
    *) say "step $name: FAILED (status $rc) in $(($(hb_now) - t0)) s" ;;
    esac
    return "$rc"
}

# hb_step_left: seconds left to the step hb_step is running (inside it), else 10^6.
hb_step_left() {
    if [ -n "${HB_STEP_LIMIT:-}" ]; then
        echo $((HB_STEP_LIMIT - ($(hb_now) - HB_STEP_T0)))
    else
        echo 1000000
    fi
}

# hb_setup_build: what the CPU entry points (ci/test.sh, ci/main-job.sh) start with:
# dependencies, configure and build into HB_BUILD (ci/setup.sh), then the PoCL settings
# for OpenCL on the CPU (ci/opencl-env.sh) in this shell.
hb_setup_build() {
    bash "$HB_ROOT/ci/setup.sh"
    # shellcheck source=ci/opencl-env.sh
    . "$HB_ROOT/ci/opencl-env.sh" "$HB_BUILD"
}

# hb_plot_python: prints the interpreter the plot scripts run with: HINESBATCH_PYTHON
# where set, else the first of /usr/bin/python3 and python3 in PATH that imports
# matplotlib (the CLI's rule, cmake/hb_python.cmake); returns 1, saying so on stderr,
# when none does.
hb_plot_python() {
    local py
    if [ -n "${HINESBATCH_PYTHON:-}" ]; then
        printf '%s\n' "$HINESBATCH_PYTHON"
        return 0
    fi
    for py in /usr/bin/python3 "$(command -v python3 2>/dev/null || true)"; do
        if [ -n "$py" ] && [ -x "$py" ] && "$py" -c 'import matplotlib' 2>/dev/null; then
            printf '%s\n' "$py"
            return 0
        fi
    done
    say "no python3 with matplotlib (/usr/bin/python3, python3 in PATH; HINESBATCH_PYTHON names one)" >&2
    return 1
}

# hb_cpu_cli BUILD: the program with the CPU backends only (no CUDA, no OpenCL,
# no tests) in BUILD, configured once and brought up to date: what the NEURON
# checks (ci/neuron-check.sh, neuron-import-check.sh, net-neuron-check.sh) run.
hb_cpu_cli() {
    if [ ! -x "$1/apps/hinesbatch" ]; then
        cmake -S "$HB_ROOT" -B "$1" -DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENCL=OFF \
            -DHINESBATCH_BUILD_TESTS=OFF >/dev/null
    fi
    cmake --build "$1" -j"$(hb_jobs)" --target hinesbatch_cli >/dev/null
}

# hb_neuron_venv VENV [SPEC]: a virtual environment at VENV with PyPI's NEURON
# (SPEC, default neuron==NEURON_VERSION, 9.0.2) and numpy, made once (network
# access to PyPI then); prints NEURON's version.
hb_neuron_venv() {
    local spec=${2:-neuron==${NEURON_VERSION:-9.0.2}}
    if [ ! -x "$1/bin/python" ] || ! "$1/bin/python" -c 'import neuron, numpy' 2>/dev/null; then
        python3 -m venv "$1"
        "$1/bin/pip" install -q "$spec" numpy
    fi
    "$1/bin/python" -c 'import neuron; print("NEURON", neuron.__version__)'
}
