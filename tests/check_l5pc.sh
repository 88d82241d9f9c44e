#!/usr/bin/env bash
# check_l5pc.sh: the L5PC model description (data/models/l5pc/l5pc.json) on the backend under test, double and float, against NEURON's reference run: spike times within 0.05 ms, soma voltage within 1 mV away from spikes, the soma cai probe within 1e-3 relative in double, 5e-3 in float, the soma currents away from spikes within 1e-6 of their largest in double, 0.1 in float (ci/l5pc_compare.py; ci/l5pc-compare.sh says why).
# Usage: check_l5pc.sh HINESBATCH SOURCE_DIR   (HINESBATCH_BACKEND picks the backend)
set -u
exe=$1
src=$2
py=python3
command -v "$py" >/dev/null 2>&1 || py=/usr/bin/python3
command -v "$py" >/dev/null 2>&1 || { echo "check_l5pc: no python3: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
rc=0
for p in double float; do
    cai_tol=1e-3 cur_tol=1e-6
    [ "$p" = float ] && cai_tol=5e-3 cur_tol=0.1
    "$exe" simulate --model "$src/data/models/l5pc/l5pc.json" --cells 1 --iclamp 100,500,0.8 \
        --tstop 600 --dt 0.025 --threshold 0 --precision "$p" --record 1 \
        --csv "$dir/v-$p.csv" --spikes "$dir/s-$p.csv" || exit 1
    "$py" "$src/ci/l5pc_compare.py" --ref "$src/data/models/l5pc/reference" \
        --trace "$dir/v-$p.csv" --spikes "$dir/s-$p.csv" --cai-tol "$cai_tol" \
        --cur-tol "$cur_tol" --label "${HINESBATCH_BACKEND:-auto} $p" || rc=1
done
exit $rc
