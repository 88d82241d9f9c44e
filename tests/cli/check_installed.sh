#!/usr/bin/env bash
# check_installed.sh: the installed hinesbatch program finds its shipped neurons and scripts from any directory.
# Usage: check_installed.sh BUILD WORK
#   cmake --install BUILD into WORK/prefix, then, from WORK/elsewhere (not the source or
#   build tree), runs WORK/prefix/bin/hinesbatch: simulate with no --swc (the shipped
#   neuron), bench on every shipped neuron (mix:real), and simulate --plot when the
#   build found a Python with matplotlib (HB_PLOT_PYTHON, set by tests/cli/CMakeLists.txt;
#   empty: the plot part is skipped with a note). Exits 1 on the first failure.
set -euo pipefail
build=$1 work=$2

fail() {
    echo "check_installed: FAILED: $*" >&2
    exit 1
}

export HINESBATCH_BACKEND=serial OMP_WAIT_POLICY=passive
unset HINESBATCH_DATA_DIR HINESBATCH_PYTHON
rm -rf "$work"
mkdir -p "$work/elsewhere"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "cmake --install"; }
hb=$work/prefix/bin/hinesbatch
share=$work/prefix/share/hinesbatch
for f in morphologies/nrn__c91662.swc morphologies/SOURCES.md scripts/plot_traces.py \
         scripts/plot_bench.py; do
    [ -f "$share/$f" ] || fail "the install has no share/hinesbatch/$f"
done
cd "$work/elsewhere"

echo "== hinesbatch simulate --help names the installed neurons"
"$hb" simulate --help >help.txt
grep -q "$share/morphologies" help.txt || { cat help.txt; fail "simulate --help does not name $share/morphologies"; }

echo "== simulate with no --swc, from $PWD"
"$hb" simulate --cells 2 --tstop 2 --csv t.csv --spikes s.csv | tee sim.log
grep -q "rows 1508," sim.log || fail "simulate did not load the shipped nrn__c91662.swc"
if [ ! -s t.csv ] || [ ! -s s.csv ]; then
    fail "no traces or spikes written"
fi

echo "== bench on every shipped neuron (mix:real)"
"$hb" bench --backend serial --kind hines --morphology mix:real --systems 2 --max-reps 1 \
    --target-s 0.01 >bench.log 2>&1 || { cat bench.log; fail "bench --morphology mix:real"; }

if [ -n "${HB_PLOT_PYTHON:-}" ]; then
    echo "== simulate --plot (Python found at configure time: $HB_PLOT_PYTHON), python3 not in PATH"
    # PATH without any python3: the recorded interpreter needs none.
    env PATH=/nonexistent "$hb" simulate --cells 3 --tstop 10 --plot p.png
    [ -s p.png ] || fail "no plot written"
    [ "$(head -c 4 p.png | od -An -c | tr -d ' ')" = "211PNG" ] || fail "p.png is not a PNG"
    [ -z "$(find . -name 'p.png.*')" ] || fail "temporary files left: $(find . -name 'p.png.*')"
else
    echo "note: the plot part is skipped: no Python with matplotlib was found when configuring"
fi
echo "check_installed: OK"
