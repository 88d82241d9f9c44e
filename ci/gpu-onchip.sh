#!/usr/bin/env bash
# gpu-onchip.sh: the on-chip solvers' measurements on the GPU machine (issue 17), after ci/gpu.sh built build-gpu/: the seeds' Thomas grid against cuSPARSE, the Hines suites, OpenMP against the host's copy.
# Usage: bash ci/gpu-onchip.sh PART... OUTDIR
#   PART: grid-double | grid-float (the seeds' Thomas grid, CUDA: per-system,
#         cooperative and AUTO, cuSPARSE's two routines; NVIDIA OpenCL AUTO),
#         hines (256..256,000 CA1 cells and the real-cell mix: every Hines strategy
#         and AUTO), span (the cooperative solver with G = 1..32 groups per system at
#         20 and 200 systems of 1,024 and 8,192 rows), omp (OpenMP and serial at large batches against the host copy).
# OUTDIR receives onchip.tar.gz (one CSV and log per part) and onchip.md (the
# grid tables of apps/grid_table.py). Each bench point is timed as everywhere:
# host clock around solve + synchronize, median of the reps.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ $# -ge 2 ] || { hb_usage; exit 2; }
out=${*: -1}
parts=("${@:1:$#-1}")
B="$HB_ROOT/build-gpu/apps/hinesbatch"
[ -x "$B" ] || die "no $B: run ci/gpu.sh first"
work="$out/onchip"
mkdir -p "$work"
# The archive is written however the script ends (a caller's timeout
# included), so finished parts always come back.
pack() {
    csvs=("$work"/grid-*.csv)
    if [ -e "${csvs[0]}" ]; then
        python3 "$HB_ROOT/apps/grid_table.py" "${csvs[@]}" >"$out/onchip.md" || true
    fi
    tar -czf "$out/onchip.tar.gz" -C "$out" onchip && rm -rf "$work"
}
trap pack EXIT
trap 'exit 143' TERM INT
grid_sys="256,2560,25600,256000" grid_rows="64,128,256,512"
long_sys="20,200,2000,20000" long_rows="1024,2048,4096,8192"
run() { # NAME ARGS...: one bench call into work/NAME.csv, its stderr in NAME.log
    local name=$1
    shift
    say "bench $name: $*"
    "$B" bench "$@" --csv "$work/$name.csv" >"$work/$name.out" 2>"$work/$name.log" ||
        say "bench $name: status $? (see $name.log)"
}
for part in "${parts[@]}"; do
    case "$part" in
    grid-double | grid-float)
        p=${part#grid-}
        run "$part-a" --suite thomas --backend cuda --strategy per-system,cooperative,auto \
            --systems "$grid_sys" --rows "$grid_rows" --precision "$p" --max-seconds 200
        run "$part-b" --suite thomas --backend cuda --strategy per-system,cooperative,auto \
            --systems "$long_sys" --rows "$long_rows" --precision "$p" --max-seconds 200
        run "$part-ocl" --suite thomas --backend opencl --strategy auto \
            --systems 256,25600,256000 --rows 512 --precision "$p" --max-seconds 60 ;;
    hines)
        run hines --kind hines --backend cuda \
            --strategy per-system,branch-level,fine-tree,cell-group,auto \
            --systems 256,2560,25600,256000 --morphology jaxley__morph_ca1_n120,mix:real \
            --precision double --max-seconds 300
        run hines-ocl --kind hines --backend opencl --strategy cell-group,auto \
            --systems 2560,256000 --morphology jaxley__morph_ca1_n120 --precision double \
            --max-seconds 60 ;;
    span)
        for g in 1 2 4 8 16 32; do
            HINESBATCH_COOP_SPAN=$g run "span-g$g" --suite thomas --backend cuda \
                --strategy cooperative --systems 20,200 --rows 1024,8192 \
                --precision double,float --max-seconds 60
        done ;;
    omp)
        OMP_PROC_BIND=close run omp-thomas --kind thomas --backend openmp --strategy per-system \
            --systems 256000 --rows 64,512 --precision double,float --max-seconds 120
        OMP_PROC_BIND=close run omp-hines --kind hines --backend openmp --strategy per-system \
            --systems 25600 --morphology jaxley__morph_ca1_n120,levels:512:4,mix:real \
            --precision double,float --max-seconds 120 ;;
    *) die "unknown part $part" ;;
    esac
done
say "done"
