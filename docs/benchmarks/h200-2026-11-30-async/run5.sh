#!/usr/bin/env bash
# run5.sh: the fifth device call of this record (H200), issue 17: what the reciprocal factor (EXACT 0 in HB_CELL_SOLVE_STAGED, one division less per level, as the simulation's epoch runs it) buys the cell-group solver on the CA1 cell (nrn__c91662, 728 rows) at 256 and 2,560 cells, double and float, two rounds turn about against the tree as it is; and how far its results move from the oracle (test_cell_group on it; the tree's bound is 1e-12 normwise in double). The reciprocal build is a sed of the device copy. Comes back in call5.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-async/run5.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call5
mkdir -p "$w"
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
variant() { # variant NAME SED
    local d=/tmp/hb-$1
    rm -rf $d && mkdir -p $d && tar --exclude='./b' --exclude='./build*' -cf - . | tar -xf - -C $d && cd $d &&
        { [ -z "$2" ] || sed -i "$2" kernels_cl/solver/hines_cell.cl; } &&
        cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
            -DCMAKE_CUDA_ARCHITECTURES="$arch" >b.log 2>&1 && cmake --build b -j 8 --target hinesbatch_cli test_cell_group >>b.log 2>&1
}
(variant old '') &
p1=$!
(variant recip 's/HB_CELL_SOLVE_STAGED(1, 0, 0,/HB_CELL_SOLVE_STAGED(0, 0, 0,/') &
p2=$!
wait $p1 $p2
for k in old recip; do
    echo "$k build: $(test -x /tmp/hb-$k/b/apps/hinesbatch && echo ok || (echo FAILED; tail -3 /tmp/hb-$k/b.log)), $(grep -c 'SOLVE_STAGED(0, 0, 0' /tmp/hb-$k/kernels_cl/solver/hines_cell.cl) reciprocal, $(($(date +%s) - t0)) s"
done
q=(--serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30)
for round in 1 2; do
    for k in old recip; do
        timeout 60 /tmp/hb-$k/b/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group \
            --morphology nrn__c91662 --systems 256,2560 --precision double,float "${q[@]}" \
            --csv "$w/$k-r$round.csv" >/dev/null 2>"$w/$k-r$round.log"
        echo "$k round $round: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s: %s ms; ", $6, $7, $11}' "$w/$k-r$round.csv")"
    done
done
HINESBATCH_BACKEND=cuda timeout 120 /tmp/hb-recip/b/tests/test_cell_group >"$w/test-recip.txt" 2>&1
echo "test_cell_group on recip: exit $?; $(grep -c FAIL "$w/test-recip.txt") failed checks"
grep -m6 FAIL "$w/test-recip.txt" | cut -c1-300
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call5.tar.gz" -C "$OUT" call5 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
