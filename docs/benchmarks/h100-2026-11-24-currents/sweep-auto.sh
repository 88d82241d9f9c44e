# device call: AUTO's second look (the L5PC to the stages on CUDA): CUDA tests, the L5PC against NEURON on CUDA and NVIDIA OpenCL, AUTO's engine and speed for the L5PC and the HH models.
set -u
export HINESBATCH_OPENCL_PLATFORM=NVIDIA
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu-name.txt"
HB_GPU_TEST_LABELS="cuda" HB_CALL_S=200 bash ci/gpu.sh --limit tests=120 --tests "$OUT/t" > "$OUT/gpu.log" 2>&1
grep "gpu:" "$OUT/gpu.log" | tail -3
mkdir -p /tmp/l5o; OUT=/tmp/l5o CUDA=ON JOBS=14 BUILD=/tmp/bl5 timeout 300 bash ci/l5pc-compare.sh cuda opencl > /tmp/l5o/l5pc.txt 2>&1; echo "l5pc rc $?"; cp /tmp/l5o/l5pc.txt "$OUT/"; tail -4 /tmp/l5o/l5pc.txt
grep -h "^simulation" /tmp/l5o/*.log | sed 's/hines .*mechanisms/.. mechanisms/' | sort -u | cut -c1-400
. ci/opencl-env.sh /tmp/bl5 > /dev/null
for n in 200 1000; do for p in double float; do
  printf 'cuda | L5PC | %s cells | %s | ' "$n" "$p"
  HINESBATCH_BACKEND=cuda timeout 60 /tmp/bl5/apps/hinesbatch simulate --model data/models/l5pc/l5pc.json --cells $n --iclamp 10,40,0.8 --tstop 50 --precision $p --no-split 2>&1 | grep "^performance\|^simulation" | sed 's/; hines.*//; s/stage split.*//; s/simulation: [^;]*; //' | tr '\n' ' '; echo
done; done > "$OUT/auto.txt" 2>&1
for a in "--cells 200" "--cells 200 --hh-everywhere" "--cells 10000" "--cells 200 --precision float --hh-everywhere"; do
  printf 'cuda | %s | ' "$a"
  HINESBATCH_BACKEND=cuda timeout 60 build-gpu/apps/hinesbatch simulate $a --no-split 2>&1 | grep "^performance\|^simulation" | sed 's/; hines.*//; s/stage split.*//; s/simulation: [^;]*; //' | tr '\n' ' '; echo
done >> "$OUT/auto.txt" 2>&1
cat "$OUT/auto.txt"
