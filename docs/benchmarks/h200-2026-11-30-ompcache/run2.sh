#!/usr/bin/env bash
# run2.sh: second device call of this record (H200 and its 16-core host): the fused OpenMP loop with the mechanisms summing g and I into the tile (tile-im.diff, the working tree) against the committed loop (the diff reversed), 16 threads, side by side with CUDA, double and float, four alternations, and the new loop at 4 cells per tile; the OpenMP simulation tests on this host; the cell-group solver's work-items per cell (--group-size 32..256) at 256 and 2,560 CA1 cells. Output in call2-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-ompcache/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
here=$(dirname "${BASH_SOURCE[0]}")
w=$OUT/call2 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=/tmp/r2 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
cp -r . $R/old-src 2>/dev/null; (cd $R/old-src && patch -s -R -p1 <"$OLDPWD/$here/tile-im.diff") || exit 1
omp() { # omp SRC DIR LANES
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENCL=OFF \
        -DCMAKE_C_FLAGS="-DHB_HOST_LANES=$3" >>$R/build.log 2>&1 &&
        cmake --build "$2" -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
}
omp . $R/n4 4
omp $R/old-src $R/o8 8
echo "build after $(($(date +%s) - t0)) s"
sim() { # sim BINARY BACKEND CELLS PREC THREADS
    local o=$R/sim.txt
    OMP_NUM_THREADS=$5 OMP_PROC_BIND=close HINESBATCH_BACKEND=$2 timeout 60 $1 \
        simulate --cells "$3" --precision "$4" --record 4 --no-split --csv /dev/null >$o 2>&1
    echo "== $*" >>"$w/sim.txt"; cat $o >>"$w/sim.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $o
}
echo "| round | precision | CUDA | OpenMP 16, committed | tile g and I | tile g and I, 4 lanes |" >"$w/side.md"
echo "|---|---|---|---|---|---|" >>"$w/side.md"
for round in 1 2 3 4; do
    for prec in double float; do
        c=$(sim $B/apps/hinesbatch cuda 200 $prec 16)
        a=$(sim $R/o8/apps/hinesbatch openmp 200 $prec 16)
        b=$(sim $B/apps/hinesbatch openmp 200 $prec 16)
        d=$(sim $R/n4/apps/hinesbatch openmp 200 $prec 16)
        echo "| $round | $prec | $c | $a | $b | $d |" | tee -a "$w/side.md"
    done
done
echo "1 thread, 32 cells, double: committed $(sim $R/o8/apps/hinesbatch openmp 32 double 1), tile g and I $(sim $B/apps/hinesbatch openmp 32 double 1)" | tee -a "$w/side.md"
(cd $B && timeout 100 ctest -L openmp -R "sim|net|cell|card" -j 4 --output-on-failure >"$w/ctest-openmp.txt" 2>&1)
echo "ctest openmp (sim|net|cell|card): $(grep -E 'tests passed|tests failed' "$w/ctest-openmp.txt")" | tee -a "$w/side.md"
for g in 32 64 128 256; do
    timeout 40 $B/apps/hinesbatch bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
        --systems 256,2560 --precision double,float --group-size $g --serial-max-rows 0 --target-s 0.05 \
        --wall-cap 0.3 --max-seconds 30 --csv "$w/cell-g$g.csv" >/dev/null 2>"$w/cell-g$g.log"
    echo "cell-group, $g work-items per cell: $(awk -F, 'NR>1 && $1=="cuda" {printf "%s %s: %s ms; ", $6, $7, $11}' "$w/cell-g$g.csv")" | tee -a "$w/side.md"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call2.tar.gz" -C "$OUT" call2 && cp "$w/side.md" "$OUT/call2-side.md" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
