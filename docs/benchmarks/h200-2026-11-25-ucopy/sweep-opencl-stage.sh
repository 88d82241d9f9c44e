# device call (H200): NVIDIA OpenCL's epoch at 1,000 and 10,000 CA1 cells, the no-query rule's stage (u on chip) against HINESBATCH_EPOCH_STAGE=none (u from global memory), same build as the call before.
set -u
NEW=build-gpu/apps/hinesbatch
. ci/opencl-env.sh build-gpu >/dev/null 2>&1 || true
one() { # TAG STAGE PREC N
  local r; r=$(HINESBATCH_EPOCH_STAGE=$2 HINESBATCH_BACKEND=opencl timeout 60 $NEW simulate --cells $4 --engine cells --precision $3 --record 4 --no-split --csv /dev/null --spikes /dev/null 2>&1)
  printf "%s opencl %s %s %s | %s | %s\n" "$1" "$3" "$4" "$(echo "$r" | grep -o 'performance: [0-9.e+]*' | cut -d' ' -f2)" "$(echo "$r" | grep -o 'one work-group of [^)]*' | head -1 | sed 's/, epochs of.*//')" "$(echo "$r" | grep -o 'spikes of cell 0: [^;]*' | head -1)"
}
for n in 10000 1000; do for p in double float; do for i in 1 2; do one rule all $p $n; one none none $p $n; done; done; done 2>&1 | tee "$OUT/opencl-stage.txt"
