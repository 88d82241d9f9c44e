#!/usr/bin/env bash
# run1.sh: first device call of this record (H200): cell-group, per-system and branch-level forced on 18 trees (5 shipped neurons, 9 of gen_trees.py, 4 of the bench's synthetic kinds) from 8,192 to 65,536 cells in double and 16,384 to 98,304 in float, to fit AUTO's strategy rule on tree shape. Output in call1-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-12-01-shape/run1.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
left() { echo $((570 - ($(date +%s) - t0))); }
R=docs/benchmarks/h200-2026-12-01-shape
w=$OUT/call1 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
B=/tmp/r1/b && rm -rf /tmp/r1 && mkdir -p /tmp/r1
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" >$B.log 2>&1 && cmake --build $B -j 16 --target hinesbatch_cli >>$B.log 2>&1 || { tail -20 $B.log; exit 1; }
echo "build after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
H=$B/apps/hinesbatch
trees=nrn__c91662,jaxley__morph_l5pc_with_axon,arbor__pyramidal,netpyne__BS0284,jaxley__morph_ca1_n120
for t in big25 big30 big45 deep24 deep30 deep40 deep50 mid20 wide12; do trees=$trees,$PWD/$R/trees/$t.swc; done
trees=$trees,branchy:2000:3:5,branchy:900:5:1,levels:1792:8,random:2
for pt in 32768:double 65536:float 16384:double 32768:float 65536:double 16384:float 8192:double 98304:float; do
    [ "$(left)" -gt 40 ] || break
    tag=${pt#*:}-${pt%:*}
    timeout $(($(left) - 5)) $H bench --backend cuda --kind hines \
        --strategy per-system,branch-level,cell-group --morphology "$trees" --systems ${pt%:*} \
        --precision ${pt#*:} --serial-max-rows 0 --target-s 0.03 --wall-cap 0.2 \
        --max-seconds $(($(left) - 15)) --csv "$w/s-$tag.csv" >/dev/null 2>"$w/s-$tag.log"
    echo "${pt}: $(tail -1 "$w/s-$tag.log") after $(($(date +%s) - t0)) s" | tee -a "$w/summary.md"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call1.tar.gz" -C "$OUT" call1 && cp "$w/summary.md" "$OUT/call1-summary.md"
echo "done in $(($(date +%s) - t0)) s"
