# device call: the L5PC (1000 cells, 50 ms) per engine on CUDA and NVIDIA OpenCL, double and float: what AUTO ran and each engine forced.
set -u
export HINESBATCH_OPENCL_PLATFORM=NVIDIA
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu-name.txt"
mkdir -p /tmp/l5o; OUT=/tmp/l5o CUDA=ON JOBS=14 BUILD=/tmp/bl5 PRECISIONS=double timeout 240 bash ci/l5pc-compare.sh cuda > /tmp/l5o/l5pc.txt 2>&1; echo "l5pc rc $?"; tail -1 /tmp/l5o/l5pc.txt
. ci/opencl-env.sh /tmp/bl5 > /dev/null
for n in 1000 200; do for p in double float; do for b in cuda opencl; do for e in auto cells stages; do
  printf '%s | %s cells | %s | %s | ' "$b" "$n" "$p" "$e"
  HINESBATCH_BACKEND=$b timeout 60 /tmp/bl5/apps/hinesbatch simulate --model data/models/l5pc/l5pc.json --cells $n --iclamp 10,40,0.8 --tstop 50 --precision $p --engine $e --no-split 2>&1 | grep "^performance\|^simulation" | sed 's/; hines.*//; s/stage split.*//' | tr '\n' ' '; echo
done; done; done; done > "$OUT/l5pc-engines.txt" 2>&1
cat "$OUT/l5pc-engines.txt"
