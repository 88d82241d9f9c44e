#!/usr/bin/env bash
# run4.sh: the fourth device call of this record (H200), issue 18: run3.sh's question with working knobs (in call 3 a group of 32 took AUTO to stage all, 98 KiB, and the local-memory limit sent the run to the stages engine, whose fit test is the solver's four arrays). Can double precision hold a ninth CA1 cell per SM? 10,000 cells in double under AUTO (64 work-items, stage vx, 8 cells per SM: 128 registers x 64 and 27,200 B of shared memory) against stage vx forced (HINESBATCH_EPOCH_STAGE=vx) with 32 work-items (registers for 16 cells), with and without the trunk's 3,072 B of PCR rows (HB_TEST_NOPCR, a patch of api/sim/sim.c on the device copy only: 24,128 B, 9 per SM); two rounds. Comes back in call4.tar.gz.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-async/run4.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
w=$OUT/call4
mkdir -p "$w"
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
sed -i 's|\*pcr = HB_EPOCH_LAUNCH_BYTES(max_rows, esize, s, 1) <= dev->local_mem;|*pcr = !(getenv("HB_TEST_NOPCR") \&\& getenv("HB_TEST_NOPCR")[0]) \&\& HB_EPOCH_LAUNCH_BYTES(max_rows, esize, s, 1) <= dev->local_mem;|' api/sim/sim.c
grep -c HB_TEST_NOPCR api/sim/sim.c
cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$w/build.log" 2>&1 &&
    cmake --build b -j 16 --target hinesbatch_cli >>"$w/build.log" 2>&1
echo "build: $? after $(($(date +%s) - t0)) s"
sim() { # sim TAG NOPCR GROUP STAGE
    HB_TEST_NOPCR=$2 HINESBATCH_EPOCH_STAGE=$4 HINESBATCH_BACKEND=cuda timeout 60 b/apps/hinesbatch simulate --cells 10000 \
        --precision double --group-size "$3" --record 4 --no-split --csv /dev/null >"$w/$1.out" 2>&1
    echo "$(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' "$w/$1.out") $(grep -m1 -o 'engine[^;]*' "$w/$1.out" | head -c 160)"
}
for round in 1 2; do
    echo "round $round auto: $(sim auto-$round '' 0 '')"
    echo "round $round vx, 32 items: $(sim g32-$round '' 32 vx)"
    echo "round $round vx, 32 items, trunk swept: $(sim g32s-$round 1 32 vx)"
    echo "round $round vx, 64 items, trunk swept: $(sim g64s-$round 1 64 vx)"
done
grep -h "^simulation" "$w"/auto-1.out "$w"/g32s-1.out | cut -c1-400
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call4.tar.gz" -C "$OUT" call4 && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
