#!/usr/bin/env bash
# run.sh: a longer fuzzing run of the tests/fuzz targets, one after the other, each on one core.
# Usage: tests/fuzz/run.sh [BUILD_DIR] [SECONDS_PER_TARGET] [-- extra libFuzzer flags]
#   BUILD_DIR defaults to build-fuzz (configured as in tests/fuzz/README.md),
#   SECONDS_PER_TARGET to 600. The corpus grows in BUILD_DIR/tests/fuzz/corpus/<target>
#   (kept between runs); data/morphologies seeds it; crashes land in BUILD_DIR/tests/fuzz/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-fuzz}
seconds=${2:-600}
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
for target in fuzz_swc fuzz_cell_solve; do
    exe=$build/tests/fuzz/$target
    [ -x "$exe" ] || { echo "run.sh: $exe not built (see tests/fuzz/README.md)" >&2; exit 2; }
    corpus=$build/tests/fuzz/corpus/$target
    mkdir -p "$corpus"
    echo "run.sh: $target for $seconds s"
    HINESBATCH_BACKEND=serial "$exe" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
        -rss_limit_mb=2048 -dict="$root/tests/fuzz/swc.dict" -print_final_stats=1 \
        -artifact_prefix="$build/tests/fuzz/" "$@" \
        "$corpus" "$root/data/morphologies"
done
