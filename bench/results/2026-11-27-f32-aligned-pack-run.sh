#!/usr/bin/env bash
# f32 2-D transposes: a 64x64-tile launch of two elements a thread, run
# where the host finds every row aligned to 8 bytes, beside the 32x32 one
# (this change), against the compiler before it (old bundles in
# aligned-pack/). Checks at ragged sizes with even and odd strides, under
# racecheck and memcheck; kernel times interleaved; Triton's transpose
# through bench/triton/compare_triton.py with both bundles.
#   stage: scripts/stage-gpu.sh, then copy the old perm.so and kernels.so
#   into .device/check/aligned-pack/ and this script into scripts/.
#   run:   bash .device/check/scripts/f32-aligned-pack-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "--- $*"; "$@" 2>&1 | grep -E "check:|ERROR SUMMARY|kernel time|registers|error" | head -4; echo "rc=${PIPESTATUS[0]}"; }
for s in 100x66 66x100 98x34 2x2 777x1000 33x31 64x130 4096x2048; do
  a=${s%x*} b=${s#*x}
  run $R extra/perm.so --entry transpose --shape 0=${a}x${b} --shape 1=${b}x${a} --check
done
for tool in racecheck memcheck; do
  for s in 100x66 98x34 33x31; do
    a=${s%x*} b=${s#*x}
    run compute-sanitizer --tool $tool --error-exitcode 9 $R extra/perm.so --entry transpose --shape 0=${a}x${b} --shape 1=${b}x${a} --check
  done
done
for round in 1 2 3; do
  for s in 8192x8192 8191x8191 12288x12288 12289x12289 4096x8192; do
    a=${s%x*} b=${s#*x}
    for side in old new; do
      bundle=extra/perm.so; [[ $side == old ]] && bundle=aligned-pack/perm.so
      t=$($R $bundle --entry transpose --shape 0=${a}x${b} --shape 1=${b}x${a} --bench 50 2>&1 |
        sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p')
      echo "TIME round=$round $s $side ${t:-?}"
    done
  done
done
for side in new old; do
  bundle=triton/kernels.so; [[ $side == old ]] && bundle=aligned-pack/kernels.so
  echo "=== triton $side"
  timeout 240 python3 triton/compare_triton.py --bundle $bundle --kernels transpose 2>&1 | tail -12
done
