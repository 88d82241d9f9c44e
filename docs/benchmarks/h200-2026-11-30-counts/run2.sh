#!/usr/bin/env bash
# run2.sh: second device call of this record (H200): the row pass's per-row constants loaded at the row's start (hoist.diff, as committed) against the tree before (hoist.diff reversed), and the same with those loads through L2 alone (-DHB_EPOCH_CG); `simulate` of CA1 cells, double 10,000 / 1,000 / 200 and float 10,000, three builds turn about, two rounds; the CUDA simulation tests on the new tree. Output in call2-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-counts/run2.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
D=docs/benchmarks/h200-2026-11-30-counts
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
rm -rf /tmp/r2 && mkdir -p /tmp/r2 && cp -r . /tmp/r2/old && (cd /tmp/r2/old && patch -s -R -p1 <$D/hoist.diff) || exit 1
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" "${@:3}" >"$2.log" 2>&1 && cmake --build "$2" -j 6 --target hinesbatch_cli >>"$2.log" 2>&1 ||
    echo "build $2 failed"; }
cfg /tmp/r2/old /tmp/r2/b-old &
cfg . /tmp/r2/b-new &
cfg . /tmp/r2/b-cg -DCMAKE_CUDA_FLAGS=-DHB_EPOCH_CG &
wait
echo "builds after $(($(date +%s) - t0)) s"
(cmake -S . -B /tmp/r2/b-test -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >/tmp/r2/b-test.log 2>&1 && cmake --build /tmp/r2/b-test -j 4 >>/tmp/r2/b-test.log 2>&1) &
tp=$!
for round in 1 2; do
    for run in "10000 double" "1000 double" "200 double" "10000 float"; do
        set -- $run
        line="round $round, $1 cells, $2:"
        for b in old new cg; do
            HINESBATCH_BACKEND=cuda timeout 60 /tmp/r2/b-$b/apps/hinesbatch simulate --cells "$1" --precision "$2" --record 4 \
                --no-split --csv /dev/null >/tmp/r2/sim.txt 2>&1
            line="$line $b $(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' /tmp/r2/sim.txt)"
            cat /tmp/r2/sim.txt >>"$OUT/call2-sim-$b.txt"
        done
        echo "$line" | tee -a "$OUT/call2-summary.txt"
    done
done
wait $tp
(cd /tmp/r2/b-test && timeout 200 ctest -L cuda -R "sim|net|nmodl|probe|cell" --output-on-failure >"$OUT/call2-ctest-cuda.txt" 2>&1)
echo "ctest cuda: $(grep -E 'tests passed|tests failed' "$OUT/call2-ctest-cuda.txt")" | tee -a "$OUT/call2-summary.txt"
echo "done in $(($(date +%s) - t0)) s"
