#!/usr/bin/env bash
# run2.sh: the second device call of this record (H200): the cost of the self-event change where no mechanism sends (the built-in catalogue: the queues compiled out, one more table argument per mechanism kernel): the tree as it is ("new") and with the engine's part of the change reversed ("old": send.diff over api/, kernels_cl/ and the backends), built alike (Release, CUDA only), then `hinesbatch simulate` under AUTO turn about, three rounds: 10,000 CA1 cells and 200 in double. Everything comes back in call2.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-send/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call2
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-400}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=$PWD/docs/benchmarks/h200-2026-11-30-send
variant() { # variant NAME REVERSE
    local d=/tmp/hb-$1
    rm -rf $d && mkdir -p $d && tar --exclude='./build*' -cf - . | tar -xf - -C $d && cd $d &&
        { [ "$2" = 0 ] || patch -s -R -p1 <"$R/send.diff"; } &&
        cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
            -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 && cmake --build b -j 8 --target hinesbatch_cli >>b.log 2>&1
}
(variant new 0) &
p1=$!
(variant old 1) &
p2=$!
wait $p1 $p2
for k in new old; do
    echo "$k build: $(test -x /tmp/hb-$k/b/apps/hinesbatch && echo ok || (echo FAILED; tail -3 /tmp/hb-$k/b.log)), $(($(date +%s) - t0)) s"
done
grep -c selfq /tmp/hb-new/kernels_cl/sim/hb_mech_passes.cl /tmp/hb-old/kernels_cl/sim/hb_mech_passes.cl
sim() { # sim TREE TAG CELLS PRECISION
    [ "$(left)" -gt 30 ] || { echo "$2: skipped"; return; }
    HINESBATCH_BACKEND=cuda timeout 60 /tmp/hb-$1/b/apps/hinesbatch simulate --cells "$3" --precision "$4" \
        --record 4 --no-split --csv /dev/null >"$w/$2.out" 2>&1
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/$2.out"
}
for round in 1 2 3; do
    for k in new old; do
        echo "$k round $round: 10000 double $(sim $k $k-10000-$round 10000 double), 200 double $(sim $k $k-200-$round 200 double)"
    done
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
