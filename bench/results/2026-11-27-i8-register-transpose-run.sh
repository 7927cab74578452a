#!/usr/bin/env bash
# Packed staged tiles (1- and 2-byte elements) transposed in registers:
# a thread loads 4 rows of 4 bytes, transposes the 4x4 block with byte
# permutes and stores 4-byte vectors into a swizzled tile, which phase 2
# reads back a vector a store (this change), against the compiler before
# it (one byte a shared access). Variants of the change with 16 and 64
# rows a thread (32x8 and 32x2 blocks) beside its 32 (32x4): bundles of
# builds with kPackedRowsPerThread set to 16 and 64, not committed.
#   stage: scripts/stage-gpu.sh; copy old.so, new16.so, new64.so into
#          .device/check/var/ and this script into scripts/.
#   run:   bash .device/check/scripts/i8-register-transpose-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "--- $*"; "$@" 2>&1 | grep -E "check:|ERROR SUMMARY|error" | head -4; echo "rc=${PIPESTATUS[0]}"; }
# Checks against the CPU reference: ragged, empty-ish and large shapes.
for b in extra/perm.so var/new16.so var/new64.so; do
  for s in 2x33x5x40 3x130x7x5 1x1x1x1 8x64x56x56 2x129x3x3 1x7x130x131; do
    IFS=x read -r n c h w <<<"$s"
    run $R $b --entry nchw_to_nhwc --shape 0=$n"x"$c"x"$h"x"$w --shape 1=$n"x"$h"x"$w"x"$c --check
    run $R $b --entry nhwc_to_nchw --shape 0=$n"x"$h"x"$w"x"$c --shape 1=$n"x"$c"x"$h"x"$w --check
  done
done
for tool in racecheck memcheck; do
  for s in 2x33x5x40 3x130x7x5 1x7x130x131; do
    IFS=x read -r n c h w <<<"$s"
    run compute-sanitizer --tool $tool --error-exitcode 9 $R extra/perm.so --entry nchw_to_nhwc --shape 0=$n"x"$c"x"$h"x"$w --shape 1=$n"x"$h"x"$w"x"$c --check
    run compute-sanitizer --tool $tool --error-exitcode 9 $R extra/perm.so --entry nhwc_to_nchw --shape 0=$n"x"$h"x"$w"x"$c --shape 1=$n"x"$c"x"$h"x"$w --check
  done
done
# Kernel times, median of 50, interleaved over three rounds.
t() { "$@" --bench 50 2>&1 | sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' | head -1; }
for round in 1 2 3; do
  for shape in 32x256x56x56:32x56x56x256 64x128x112x112:64x112x112x128 8x64x56x56:8x56x56x64; do
    nchw=${shape%%:*} nhwc=${shape##*:}
    echo "TIME round=$round $nchw copy $(t $R extra/perm.so --entry copy4 --shape 0=$nchw --shape 1=$nchw)"
    for side in old new32 new16 new64; do
      b=var/$side.so; [[ $side == new32 ]] && b=extra/perm.so
      echo "TIME round=$round $nchw nchw_to_nhwc $side $(t $R $b --entry nchw_to_nhwc --shape 0=$nchw --shape 1=$nhwc)"
      echo "TIME round=$round $nchw nhwc_to_nchw $side $(t $R $b --entry nhwc_to_nchw --shape 0=$nhwc --shape 1=$nchw)"
    done
  done
done
