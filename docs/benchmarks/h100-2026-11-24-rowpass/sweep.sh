# device call: uniform parameters (NEW), clamp loads skipped (CLAMP = a2338a1) vs PREV (680c61b) vs OLD (bfc87c4); CUDA + NVIDIA OpenCL tests.
set -u
export HINESBATCH_OPENCL_PLATFORM=NVIDIA
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu-name.txt"
bld() { local name=$1 tgz=$2
  mkdir -p /tmp/$name && tar xzf $tgz -C /tmp/$name && cmake -S /tmp/$name -B /tmp/$name/b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=$arch -DHINESBATCH_WITH_OPENCL=OFF > /tmp/$name.cfg.log 2>&1 && cmake --build /tmp/$name/b -j5 --target hinesbatch_cli > /tmp/$name.build.log 2>&1; echo "$name build rc $?"; }
( bld old .hbold.tar.gz; bld prev .hbprev.tar.gz ) > "$OUT/oldbuild.txt" 2>&1 &
( bld rng .hbrng.tar.gz ) > "$OUT/unrbuild.txt" 2>&1 &
HB_GPU_TEST_LABELS="cuda opencl" HB_CALL_S=330 bash ci/gpu.sh --limit tests=260 --tests "$OUT/t" > "$OUT/gpu.log" 2>&1
wait
cat "$OUT/oldbuild.txt" "$OUT/unrbuild.txt"; grep "gpu:" "$OUT/gpu.log" | tail -4
run() { local tag=$1 exe=$2; shift 2
  printf '%s | %s | ' "$tag" "$*"; HINESBATCH_BACKEND=cuda $exe simulate --no-split "$@" 2>&1 | grep "^performance" | cut -c14-40; }
for a in "--cells 200 --engine cells" "--cells 200 --engine cells --hh-everywhere" "--cells 10000 --engine cells" "--cells 200 --engine cells --precision float" "--cells 200 --engine cells --precision float --hh-everywhere"; do
  for rep in 1 2; do
  run NEW build-gpu/apps/hinesbatch $a
  run CLAMP /tmp/rng/b/apps/hinesbatch $a
  run PREV /tmp/prev/b/apps/hinesbatch $a
  run OLD /tmp/old/b/apps/hinesbatch $a
  done
done > "$OUT/ab.txt" 2>&1
cat "$OUT/ab.txt"
mkdir -p /tmp/l5o; OUT=/tmp/l5o CUDA=ON JOBS=8 BUILD=/tmp/bl5 timeout 200 bash ci/l5pc-compare.sh cuda opencl > /tmp/l5o/l5pc.txt 2>&1; echo "l5pc rc $?"; cp /tmp/l5o/l5pc.txt "$OUT/"; tail -4 /tmp/l5o/l5pc.txt
