#!/usr/bin/env bash
# run4.sh: fourth device call of this record (H200's 16-core host): the fused OpenMP loop with each block's g and I copied into the tile and D = D0 + g, R = axial - I as vectors, partial tiles swept whole (tile-d0.diff, the working tree) against the committed loop (the diff reversed), the main job at 16 threads, double and float, six alternations, with CUDA in the same rounds; whether the host's 16 CPUs pair up (8 threads on CPUs 0-7 against 8 on the even CPUs); the OpenMP simulation tests on this host. Output in call4-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-ompcache/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
here=$(dirname "${BASH_SOURCE[0]}")
w=$OUT/call4 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=/tmp/r4 && rm -rf $R && mkdir -p $R
B=$R/b
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$R/build.log 2>&1 && cmake --build $B -j 16 >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
cp -r . $R/old-src 2>/dev/null; (cd $R/old-src && patch -s -R -p1 <"$OLDPWD/$here/tile-d0.diff") || exit 1
cmake -S $R/old-src -B $R/o8 -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=OFF -DHINESBATCH_WITH_OPENCL=OFF \
    >>$R/build.log 2>&1 && cmake --build $R/o8 -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 ||
    { tail -20 $R/build.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s"
sim() { # sim BINARY BACKEND CELLS PREC THREADS [PLACES]
    local o=$R/sim.txt
    OMP_NUM_THREADS=$5 OMP_PROC_BIND=close OMP_PLACES=${6:-threads} HINESBATCH_BACKEND=$2 timeout 60 $1 \
        simulate --cells "$3" --precision "$4" --record 4 --no-split --csv /dev/null >$o 2>&1
    echo "== $*" >>"$w/sim.txt"; cat $o >>"$w/sim.txt"
    sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $o
}
echo "| round | precision | CUDA | OpenMP 16, committed | blocks of g and I, D0 in the tile |" >"$w/side.md"
echo "|---|---|---|---|---|" >>"$w/side.md"
for round in 1 2 3 4 5 6; do
    for prec in double float; do
        c=$(sim $B/apps/hinesbatch cuda 200 $prec 16)
        if [ $((round % 2)) = 1 ]; then
            a=$(sim $R/o8/apps/hinesbatch openmp 200 $prec 16); b=$(sim $B/apps/hinesbatch openmp 200 $prec 16)
        else
            b=$(sim $B/apps/hinesbatch openmp 200 $prec 16); a=$(sim $R/o8/apps/hinesbatch openmp 200 $prec 16)
        fi
        echo "| $round | $prec | $c | $a | $b |" | tee -a "$w/side.md"
    done
done
for round in 1 2; do
    echo "8 threads, double, new loop: CPUs 0-7 $(sim $B/apps/hinesbatch openmp 200 double 8 '{0},{1},{2},{3},{4},{5},{6},{7}'), even CPUs $(sim $B/apps/hinesbatch openmp 200 double 8 '{0},{2},{4},{6},{8},{10},{12},{14}'); 1 thread, 25 cells: $(sim $B/apps/hinesbatch openmp 25 double 1 '{0}')" | tee -a "$w/side.md"
done
(cd $B && timeout 100 ctest -L openmp -R "sim|net|cell|card" -j 4 --output-on-failure >"$w/ctest-openmp.txt" 2>&1)
echo "ctest openmp (sim|net|cell|card): $(grep -E 'tests passed|tests failed' "$w/ctest-openmp.txt")" | tee -a "$w/side.md"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && cp "$w/side.md" "$OUT/call4-side.md" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
