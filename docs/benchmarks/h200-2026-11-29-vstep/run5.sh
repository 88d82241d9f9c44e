#!/usr/bin/env bash
# run5.sh: the fifth device call of this record (H200): the tree as it is ("new": the kept-again code compiled only for a catalogue with an HB_CAT_KEEPAFTER mechanism, HB_CAT_ANY_KEEPAFTER) and with the engines' part of the change reversed ("old": keepafter2.diff, the kernels' and the host passes' kept-again currents), built alike (Release, CUDA only), then `hinesbatch simulate` under AUTO turn about, three rounds: 10,000 CA1 cells in double (call 4: 1.98-1.99e10 against 2.24-2.26e10) and 200 in double. Everything comes back in call5.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-vstep/run5.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call5
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-400}
left() { echo $((limit - ($(date +%s) - t0))); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=$PWD/docs/benchmarks/h200-2026-11-29-vstep
variant() { # variant NAME REVERSE
    local d=/tmp/hb-$1
    rm -rf $d && mkdir -p $d && tar --exclude='./build*' -cf - . | tar -xf - -C $d && cd $d &&
        { [ "$2" = 0 ] || patch -s -R -p1 <"$R/keepafter2.diff"; } &&
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
grep -c KEEPAFTER /tmp/hb-new/kernels_cl/sim/epoch.cl /tmp/hb-old/kernels_cl/sim/epoch.cl
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
tar -czf "$OUT/call5.tar.gz" -C "$OUT" call5 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
