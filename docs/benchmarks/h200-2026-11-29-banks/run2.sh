#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): three resident Thomas kernels built alike: cr (this tree: cyclic reduction of the reduced system), pcrmap (cr.diff reversed: PCR, a work-item per chunk), old (pcrmap.diff reversed too: PCR, rows j and j + pper), timed in turn, two rounds, at points of both halves of the seeds' grid in both precisions (cuSPARSE beside); cr's work-items per system swept at 256,000 x 512; Nsight Compute's shared-memory counters of cr there. Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-banks/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-banks
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
left() { echo $((570 - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)

# build_tree NAME DIFF... : this tree with each DIFF reversed in turn, built
# (Release, CUDA only) in /tmp/hb-NAME.
build_tree() {
    local d=/tmp/hb-$1
    shift
    rm -rf "$d" && mkdir -p "$d"
    tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$d"
    (cd "$d" && for p in "$@"; do patch -s -R -p1 <"$here/$p" || exit 1; done &&
        cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
            -DHINESBATCH_WITH_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 &&
        cmake --build b -j 5 --target hinesbatch_cli >>b.log 2>&1)
}
build_tree cr & p1=$!
build_tree pcrmap cr.diff & p2=$!
build_tree old cr.diff pcrmap.diff & p3=$!
wait $p1 $p2 $p3
kernels="cr pcrmap old"
for k in $kernels; do
    echo "$k: $(test -x /tmp/hb-$k/b/apps/hinesbatch && echo built || (echo FAILED; tail -5 /tmp/hb-$k/b.log))"
done
echo "builds: $(($(date +%s) - t0)) s"

q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
sets=("--systems 256,25600,256000 --rows 512" "--systems 20,2000 --rows 8192")
for round in 1 2; do
    for prec in double float; do
        for i in 0 1; do
            for k in $kernels; do
                [ "$(left)" -gt 150 ] || { echo "$k $prec set $i round $round: skipped"; continue; }
                # shellcheck disable=SC2086 # the set is a list of words
                timeout 60 /tmp/hb-$k/b/apps/hinesbatch bench --suite thomas --backend cuda --strategy auto \
                    ${sets[$i]} --precision $prec "${q[@]}" --csv "$w/$k-r$round-$prec-s$i.csv" \
                    >/dev/null 2>"$w/$k-r$round-$prec-s$i.log"
                echo "$k $prec set $i round $round: status $?"
            done
        done
    done
done
echo "turns: $(($(date +%s) - t0)) s"
for g in 16 32 64 128; do
    [ "$(left)" -gt 60 ] || break
    timeout 40 /tmp/hb-cr/b/apps/hinesbatch bench --backend cuda --kind thomas --strategy cooperative \
        --systems 256000 --rows 512 --precision double --group-size $g "${q[@]}" --csv "$w/cr-group$g.csv" \
        >/dev/null 2>"$w/cr-group$g.log"
    echo "cr group $g: status $?"
done
if command -v ncu >/dev/null && [ "$(left)" -gt 40 ]; then
    m=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
    timeout 40 ncu --clock-control none -k regex:coop_local --launch-skip 2 --launch-count 1 --metrics $m \
        /tmp/hb-cr/b/apps/hinesbatch bench --backend cuda --kind thomas --strategy cooperative --systems 256000 \
        --rows 512 --precision double --serial-max-rows 0 --max-reps 4 --target-s 0.01 --csv /dev/null \
        >"$w/ncu-cr-thomas.txt" 2>&1
    echo "ncu cr: status $?"
fi
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
