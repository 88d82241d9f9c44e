#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): why call 1's small batches got slower. Four resident kernels built alike, each timed at the same points (double, one bench call per kernel and point set, cuSPARSE beside): unroll (this tree: rows loaded four at a time, then divided), div (call 1's kernel: divide as each row loads; unroll.diff reversed), keepb (div with b kept in a fourth local array, no division at the load; keepb.diff on div), before (unitdiag.diff reversed on div). Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-unitdiag/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
here=docs/benchmarks/h200-2026-11-29-unitdiag
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
left() { echo $((565 - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)

# build_tree NAME PATCH... : this tree with each PATCH applied in turn (a
# leading - reverses it), built (Release, CUDA only) in /tmp/hb-NAME.
build_tree() {
    local d=/tmp/hb-$1
    shift
    rm -rf "$d" && mkdir -p "$d"
    tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$d"
    (cd "$d" && for p in "$@"; do
        if [ "${p#-}" != "$p" ]; then patch -s -R -p1 <"$here/${p#-}"; else patch -s -p1 <"$here/$p"; fi || exit 1
    done &&
        cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON \
            -DHINESBATCH_WITH_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 &&
        cmake --build b -j 4 --target hinesbatch_cli >>b.log 2>&1)
}
build_tree unroll & p1=$!
build_tree div -unroll.diff & p2=$!
build_tree keepb -unroll.diff keepb.diff & p3=$!
build_tree before -unroll.diff -unitdiag.diff & p4=$!
wait $p1 $p2 $p3 $p4
kernels="unroll div keepb before"
for k in $kernels; do
    echo "$k: $(test -x /tmp/hb-$k/b/apps/hinesbatch && echo built || (echo FAILED; tail -5 /tmp/hb-$k/b.log))"
done
echo "builds: $(($(date +%s) - t0)) s"

# The points call 1 found slower (and neighbours), in two bench calls per
# kernel; the kernels take turns so that drift in the machine hits all alike.
sets=("--systems 20,200 --rows 1024,2048,8192" "--systems 256,2560,25600 --rows 128,512")
for round in 1 2; do
    for i in 0 1; do
        for k in $kernels; do
            [ "$(left)" -gt 30 ] || { echo "$k set $i round $round: skipped"; continue; }
            # shellcheck disable=SC2086 # the set is a list of words
            timeout $(($(left) - 10)) /tmp/hb-$k/b/apps/hinesbatch bench --suite thomas \
                --backend cuda --strategy auto ${sets[$i]} --serial-max-rows 0 --target-s 0.05 \
                --wall-cap 0.3 --max-seconds 40 --precision double \
                --csv "$w/$k-r$round-s$i.csv" >/dev/null 2>"$w/$k-r$round-s$i.log"
            echo "$k set $i round $round: status $?"
        done
    done
done
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
