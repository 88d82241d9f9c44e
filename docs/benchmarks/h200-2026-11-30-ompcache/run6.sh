#!/usr/bin/env bash
# run6.sh: sixth device call of this record (H200): the chain walk's macros (chain-macros.diff, the working tree) against the text before them (the diff reversed), turn about: the cell-group solver under AUTO at 256 and 2,560 CA1 cells, double and float, and the main job on CUDA, three alternations. Output in call6-*.
# Usage, from the repository root on the GPU machine: OUT=DIR bash docs/benchmarks/h200-2026-11-30-ompcache/run6.sh
set -u
: "${OUT:?OUT: the folder that comes back}"
t0=$(date +%s)
here=$(dirname "${BASH_SOURCE[0]}")
w=$OUT/call6 && mkdir -p "$w"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >"$w/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -1 | tr -d .)
R=/tmp/r6 && rm -rf $R && mkdir -p $R
cp -r . $R/old-src 2>/dev/null; (cd $R/old-src && patch -s -R -p1 <"$OLDPWD/$here/chain-macros.diff") || exit 1
for v in new old; do
    src=.; [ $v = old ] && src=$R/old-src
    cmake -S $src -B $R/$v -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DHINESBATCH_WITH_OPENCL=OFF \
        -DCMAKE_CUDA_ARCHITECTURES="$arch" >>$R/build.log 2>&1 && cmake --build $R/$v -j 16 --target hinesbatch_cli >>$R/build.log 2>&1 ||
        { tail -20 $R/build.log; exit 1; }
done
echo "build after $(($(date +%s) - t0)) s"
echo "| round | text | double 256 | double 2,560 | float 256 | float 2,560 | main job |" >"$w/turn.md"
echo "|---|---|---|---|---|---|---|" >>"$w/turn.md"
for round in 1 2 3; do
    for v in new old; do
        [ $round = 2 ] && v=$([ $v = new ] && echo old || echo new)
        B=$R/$v/apps/hinesbatch
        timeout 40 $B bench --backend cuda --kind hines --strategy cell-group --morphology nrn__c91662 \
            --systems 256,2560 --precision double,float --serial-max-rows 0 --target-s 0.05 --wall-cap 0.3 --max-seconds 30 \
            --csv "$w/cell-$round-$v.csv" >/dev/null 2>"$w/cell-$round-$v.log"
        HINESBATCH_BACKEND=cuda timeout 60 $B simulate --cells 200 --record 4 --no-split --csv /dev/null >$R/sim.txt 2>&1
        cat $R/sim.txt >>"$w/sim.txt"
        echo "| $round | $v | $(awk -F, 'NR>1 && $1=="cuda" {printf "%s | ", $11}' "$w/cell-$round-$v.csv")$(sed -n 's/^performance: \([^ ]*\) compartment-steps.*/\1/p' $R/sim.txt) |" | tee -a "$w/turn.md"
    done
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader >>"$w/gpu.txt"
tar -czf "$OUT/call6.tar.gz" -C "$OUT" call6 && cp "$w/turn.md" "$OUT/call6-turn.md" && rm -rf "$w"
echo "done in $(($(date +%s) - t0)) s"
