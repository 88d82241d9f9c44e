#!/usr/bin/env bash
# run7.sh: seventh device call of this record (H200): the solver's trunk swept from both ends at once (trunk-twisted.diff) against the one-way sweep (the diff reversed in a copy), CA1 cells at 256 to 25,600, double and float, couplings repeated and shared, two alternations; CUDA test_cell_group on the twisted tree. Output in call7-*.
# Usage, from the repository root on the GPU machine (the diff applied): OUT=DIR bash docs/benchmarks/h200-2026-12-01-cellug/run7.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
w=$OUT/call7 && mkdir -p "$w"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=/tmp/r7 && rm -rf $R && mkdir -p $R
B=$R/b
cp -r . $R/src1 && rm -rf $R/src1/build* && (cd $R/src1 && patch -s -R -p1 <docs/benchmarks/h200-2026-12-01-cellug/trunk-twisted.diff) ||
    { echo "patch -R failed"; exit 1; }
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 --target hinesbatch_cli test_cell_group >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
cmake -S $R/src1 -B $R/b1 -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >>$R/build.log 2>&1 && cmake --build $R/b1 -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
HINESBATCH_BACKEND=cuda timeout 60 $B/tests/test_cell_group >"$w/test_cell_group.txt" 2>&1
echo "test_cell_group (cuda, twisted): rc $? $(grep -E "oracle comparisons|passed" "$w/test_cell_group.txt" | tr '\n' ' ')" | tee -a "$w/turn.md"
bench() { # bench BINARY TAG [--shared-couplings]
    timeout 60 $1 bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
        --systems 256,1024,2560,25600 --precision double,float $3 --serial-max-rows 0 --target-s 0.05 \
        --wall-cap 0.3 --max-seconds 30 --csv $R/t.csv >/dev/null 2>>"$w/bench.log"
    echo "| $2 | $(awk -F, 'NR>1 && $1=="cuda" {printf "%s | ", $11}' $R/t.csv)" | tee -a "$w/turn.md"
}
echo "| run | double 256 | 1,024 | 2,560 | 25,600 | float 256 | 1,024 | 2,560 | 25,600 |" >>"$w/turn.md"
echo "|---|---|---|---|---|---|---|---|---|" >>"$w/turn.md"
for round in 1 2; do
    bench $B/apps/hinesbatch "r$round twisted repeated" ""
    bench $R/b1/apps/hinesbatch "r$round one-way repeated" ""
    bench $B/apps/hinesbatch "r$round twisted shared" --shared-couplings
    bench $R/b1/apps/hinesbatch "r$round one-way shared" --shared-couplings
done
tar -czf "$OUT/call7.tar.gz" -C "$OUT" call7 && cp "$w/turn.md" "$OUT/call7-turn.md"
echo "done in $(($(date +%s) - t0)) s"
