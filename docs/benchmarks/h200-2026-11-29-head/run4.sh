#!/usr/bin/env bash
# run4.sh: the fourth device call of this record (H200): this tree built twice alike (Release, CUDA only), as it is ("old") and with -DHB_CELL_PREFETCH ("pf": each level's first child's couplings loaded before the level's barrier, kernels_cl/solver/hb_cell_phases.cl); `ctest -L cuda` on pf's cell-group and simulation tests; two rounds turn about of `hinesbatch simulate` (200, 1,000 and 10,000 CA1 cells in double, 10,000 in float, AUTO) and the cell-group solver on the CA1 cell. Everything comes back in call4.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-29-head/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call4
mkdir -p "$w"
t0=$(date +%s)
limit=${HB_CALL_S:-565}
left() { echo $((limit - ($(date +%s) - t0))); }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
variant() { # variant NAME FLAGS TARGET
    local d=/tmp/hb-$1
    rm -rf $d && mkdir -p $d && tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C $d &&
        cd $d && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
            -DCMAKE_CUDA_FLAGS="$2" -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 &&
        cmake --build b -j 8 $3 >>b.log 2>&1
}
(variant old "" "--target hinesbatch_cli") &
p1=$!
(variant pf "-DHB_CELL_PREFETCH" "") &
p2=$!
wait $p1 $p2
for k in old pf; do
    echo "$k build: $(test -x /tmp/hb-$k/b/apps/hinesbatch && echo ok || (echo FAILED; tail -5 /tmp/hb-$k/b.log)), $(($(date +%s) - t0)) s"
done
(cd /tmp/hb-pf/b && timeout 120 ctest -L cuda -R 'cell_group|sim|strategies' -j 4 >"$w/ctest-pf.log" 2>&1
    echo "ctest -L cuda (cell_group, sim, strategies) on pf: status $?, $(grep -E 'tests passed|tests failed' "$w/ctest-pf.log")")
declare -A bin=([old]=/tmp/hb-old/b/apps/hinesbatch [pf]=/tmp/hb-pf/b/apps/hinesbatch)
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
sim() { # sim BIN TAG CELLS PRECISION
    HINESBATCH_BACKEND=cuda timeout 40 $1 simulate --cells $3 --precision $4 --record 4 --no-split \
        --csv /dev/null >"$w/$2.out" 2>&1
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/$2.out"
}
for round in 1 2; do
    for k in old pf; do
        [ "$(left)" -gt 90 ] || { echo "$k round $round: skipped"; continue; }
        line="$k round $round:"
        for c in 200:double 1000:double 10000:double 10000:float; do
            line="$line ${c%%:*} ${c##*:} $(sim ${bin[$k]} $k-r$round-sim-${c%%:*}-${c##*:} ${c%%:*} ${c##*:});"
        done
        timeout 60 ${bin[$k]} bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
            --systems 256,2560,25600 --precision double,float "${q[@]}" --csv "$w/$k-r$round-cell.csv" \
            >/dev/null 2>"$w/$k-r$round-cell.log"
        echo "$line cell: $(grep -o 'hines \(double\|float\) [0-9]* x.*median [0-9.]* ms' "$w/$k-r$round-cell.log" | sed 's/hines \(double\|float\) \([0-9]*\) x.*median \([0-9.]*\) ms/\1 \2 \3/' | tr '\n' ';')"
    done
done
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
