# device call: epoch keep only in the unfused pass (NEW) vs BASE (8dfd078) vs OLD (bfc87c4 hand-written HH); register use of the epoch kernels.
set -u
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu-name.txt"
bld() { local name=$1 src=$2
  cmake -S $src -B /tmp/$name/b -DCMAKE_BUILD_TYPE=Release -DHINESBATCH_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=$arch -DHINESBATCH_WITH_OPENCL=OFF > /tmp/$name.cfg.log 2>&1 && cmake --build /tmp/$name/b -j5 --target hinesbatch_cli > /tmp/$name.build.log 2>&1; echo "$name build rc $?"; }
mkdir -p /tmp/old /tmp/base; tar xzf .hbold.tar.gz -C /tmp/old; tar xzf .hbrng.tar.gz -C /tmp/base
( bld old /tmp/old ) > "$OUT/b1.txt" 2>&1 &
( bld base /tmp/base ) > "$OUT/b2.txt" 2>&1 &
bld new . > "$OUT/b3.txt" 2>&1
wait; cat "$OUT"/b?.txt
for n in base new; do echo "== $n"; cuobjdump -res-usage $(find /tmp/$n/b -name 'libhinesbatch*.a' -o -name 'libhinesbatch*.so' | head -1) 2>/dev/null | grep -A1 "hb_sim_epoch" | grep -o "Function [^ ]*\|REG:[0-9]*\|STACK:[0-9]*" | paste - - - ; done > "$OUT/regs.txt" 2>&1
cat "$OUT/regs.txt"
run() { local tag=$1 exe=$2; shift 2
  printf '%s | %s | ' "$tag" "$*"; HINESBATCH_BACKEND=cuda $exe simulate --no-split "$@" 2>&1 | grep "^performance" | cut -c14-40; }
for a in "--cells 200 --engine cells" "--cells 200 --engine cells --hh-everywhere" "--cells 10000 --engine cells" "--cells 200 --engine cells --precision float" "--cells 200 --engine cells --precision float --hh-everywhere"; do
  for rep in 1 2 3; do
  run NEW /tmp/new/b/apps/hinesbatch $a
  run BASE /tmp/base/b/apps/hinesbatch $a
  run OLD /tmp/old/b/apps/hinesbatch $a
  done
done > "$OUT/ab.txt" 2>&1
cat "$OUT/ab.txt"
