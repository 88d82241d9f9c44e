#!/usr/bin/env bash
# check_bench_sim.sh: `hinesbatch bench --suite simulate --quick` on one backend: exit status, the CSV's columns, finite positive numbers.
# Usage: check_bench_sim.sh HINESBATCH BACKEND WORKDIR
# Runs the quick simulate suite (8 cells of the CA1 neuron, 5 ms, double and
# float) on BACKEND and checks the CSV: the header's columns in order, one row
# per precision, every rate, time, byte count, copy rate, fraction and spike
# count a finite number > 0, every stage share a finite number in [0, 1] and
# the shares adding up to at most 1.05, the on-chip share empty (a library
# without hb_sim_timing.onchip_ms) or in [0, 1], the engine named (hb_sim_describe),
# steps 200 and compartments 8 x 1508. Exit 77 (skip) when
# HB_TEST_ALLOW_SKIP=1 and the backend does not open (cuda without a device).
set -u
exe=$1 backend=$2 work=$3
mkdir -p "$work"
csv="$work/bench_sim_$backend.csv" log="$work/bench_sim_$backend.log"
rm -f "$csv"
"$exe" bench --suite simulate --quick --backend "$backend" --csv "$csv" 2>"$log"
rc=$?
if [ "$rc" -ne 0 ] && [ "${HB_TEST_ALLOW_SKIP:-0}" = 1 ] &&
    grep -q "^hinesbatch bench: backend $backend:" "$log"; then
    cat "$log"
    echo "check_bench_sim: $backend does not open here: skipped"
    exit 77
fi
cat "$log"
[ "$rc" -eq 0 ] || { echo "check_bench_sim: FAILED: exit status $rc"; exit 1; }
want="backend,device,engine,morphology,precision,cells,compartments,steps,time_s,compartment_steps_per_s,split_time_s,membrane_share,assembly_share,solve_share,update_share,readback_share,onchip_share,bytes_per_step,bytes_source,gbps_compulsory,copy_gbps,fraction_of_copy,spikes,speedup_vs_serial"
awk -F, -v want="$want" -v backend="$backend" '
function bad(msg) { printf "check_bench_sim: FAILED: line %d: %s\n", NR, msg; fails++ }
function finite(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
NR == 1 {
    if ($0 != want) bad("header is\n  " $0 "\nnot\n  " want)
    n = split(want, name, ",")
    for (i = 1; i <= n; ++i) col[name[i]] = i
    next
}
{
    rows++
    if (NF != n) { bad(NF " fields, not " n); next }
    if ($col["backend"] != backend) bad("backend " $col["backend"])
    if ($col["engine"] !~ /^simulation: /) bad("engine \"" $col["engine"] "\" is not hb_sim_describe")
    if ($col["cells"] != 8 || $col["steps"] != 200 || $col["compartments"] != 8 * 1508)
        bad("cells " $col["cells"] " steps " $col["steps"] " compartments " $col["compartments"])
    seen[$col["precision"]]++
    split("time_s compartment_steps_per_s split_time_s bytes_per_step gbps_compulsory " \
          "copy_gbps fraction_of_copy spikes", pos, " ")
    for (i in pos) {
        v = $col[pos[i]]
        if (!finite(v) || v + 0 <= 0) bad(pos[i] " = \"" v "\" is not a finite number > 0")
    }
    split("membrane_share assembly_share solve_share update_share readback_share", sh, " ")
    sum = 0
    for (i in sh) {
        v = $col[sh[i]]
        if (!finite(v) || v + 0 < 0 || v + 0 > 1) bad(sh[i] " = \"" v "\" is not in [0, 1]")
        sum += v
    }
    if (sum > 1.05) bad("stage shares add up to " sum)
    v = $col["onchip_share"] # empty where the library has no hb_sim_timing.onchip_ms
    if (v != "" && (!finite(v) || v + 0 < 0 || v + 0 > 1.05))
        bad("onchip_share = \"" v "\" is not in [0, 1]")
    if ($col["bytes_source"] != "engine" && $col["bytes_source"] != "streaming-count")
        bad("bytes_source " $col["bytes_source"])
    s = $col["speedup_vs_serial"]
    if (backend == "serial" && s != 1) bad("serial speedup " s)
    if (backend != "serial" && s != "") bad("speedup without a serial row: " s)
}
END {
    if (rows != 2 || seen["double"] != 1 || seen["float"] != 1)
        bad("want one double and one float row, got " rows " rows")
    if (fails) exit 1
    printf "check_bench_sim: %d rows of %s ok\n", rows, backend
}' "$csv"
