#!/usr/bin/env bash
# run2.sh: second device call of this record (H200): the cell-group solver's elimination factor corrected from the reciprocal (EXACT 2, committed) against the division (EXACT 1, a sed of a copy of the tree), CA1 cells at 256 to 25,600, shared and repeated couplings, two alternations; then where AUTO should leave cell-group: per-system, branch-level and cell-group, couplings shared and repeated, 4,096 to 131,072 CA1 cells, double and float. Output in call2-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-cellug/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call2 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=/tmp/r2 && rm -rf $R && mkdir -p $R
B=$R/b
cp -r . $R/src1 && rm -rf $R/src1/build* && sed -i 's/HB_CELL_SOLVE_STAGED(2, 0, 0, 0,/HB_CELL_SOLVE_STAGED(1, 0, 0, 0,/' $R/src1/kernels_cl/solver/hines_cell.cl
grep -c "HB_CELL_SOLVE_STAGED(1, 0, 0, 0," $R/src1/kernels_cl/solver/hines_cell.cl >"$w/div-sed.txt"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 --target hinesbatch_cli test_cell_group test_shared_couplings >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
cmake -S $R/src1 -B $R/b1 -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >>$R/build.log 2>&1 && cmake --build $R/b1 -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
for t in test_cell_group test_shared_couplings; do
    HINESBATCH_BACKEND=cuda timeout 60 $B/tests/$t >"$w/$t.txt" 2>&1
    echo "$t (cuda): rc $? $(grep -E "oracle comparisons|passed" "$w/$t.txt" | tr '\n' ' ')" | tee -a "$w/cell.md"
done
bench() { # bench BINARY TAG [--shared-couplings]
    local f=$R/bench
    timeout 60 $1 bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
        --systems 256,1024,2560,25600 --precision double,float $3 --serial-max-rows 0 --target-s 0.05 \
        --wall-cap 0.3 --max-seconds 30 --csv "$f.csv" >/dev/null 2>"$f.log"
    cat "$f.log" >>"$w/bench.log"
    echo "| $2 | $(awk -F, 'NR>1 && $1=="cuda" {printf "%s | ", $11}' "$f.csv")" | tee -a "$w/cell.md"
}
echo "| run | double 256 | 1,024 | 2,560 | 25,600 | float 256 | 1,024 | 2,560 | 25,600 |" >>"$w/cell.md"
echo "|---|---|---|---|---|---|---|---|---|" >>"$w/cell.md"
for round in 1 2; do
    bench $B/apps/hinesbatch "r$round corrected shared" --shared-couplings
    bench $R/b1/apps/hinesbatch "r$round division shared" --shared-couplings
    bench $B/apps/hinesbatch "r$round corrected repeated" ""
    bench $R/b1/apps/hinesbatch "r$round division repeated" ""
done
echo "build and turn-about after $(($(date +%s) - t0)) s" | tee -a "$w/cell.md"
# Where AUTO should leave cell-group: every strategy, one CSV per couplings setting.
for sc in shared repeated; do
    flag=""; [ $sc = shared ] && flag=--shared-couplings
    timeout 200 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy auto,per-system,branch-level,cell-group \
        --morphology nrn__c91662 --systems 4096,16384,65536,131072 --precision double,float $flag --serial-max-rows 0 \
        --target-s 0.05 --wall-cap 0.3 --max-seconds 30 --csv "$w/cross-$sc.csv" >/dev/null 2>"$w/cross-$sc.log"
    echo "crossover, $sc: rc $?" | tee -a "$w/cell.md"
    awk -F, 'NR>1 && $1=="cuda" {printf "%s %s %s: %s ms (%s of copy)\n", $4, $6, $7, $11, $16}' "$w/cross-$sc.csv" | tee -a "$w/cell.md"
    echo "after $(($(date +%s) - t0)) s" | tee -a "$w/cell.md"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && cp "$w/cell.md" "$OUT/call2-cell.md"
echo "done in $(($(date +%s) - t0)) s"
