#!/usr/bin/env bash
# f32 layout changes (4-D nests) with the staged launch of 16-byte accesses
# (32x32 tiles, four elements a thread an access on both sides, chosen on
# the host where rows allow) against the compiler before it (var/old.so:
# 32x33 tiles, one element a thread). Checks at aligned and ragged shapes,
# memcheck and racecheck, kernel times interleaved over three rounds beside
# a copy of the same bytes.
#   stage: scripts/stage-gpu.sh; copy old.so into .device/check/var/ and
#          this script into scripts/.
#   run:   bash .device/check/scripts/f32-wide-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "--- $*"; "$@" 2>&1 | grep -E "check:|ERROR SUMMARY|error" | head -4; echo "rc=${PIPESTATUS[0]}"; }
layouts() { # bundle n c h w [prefix...]
  local b=$1 n=$2 c=$3 h=$4 w=$5
  shift 5
  run "$@" $R $b --entry nchw_to_nhwc_f32 --shape 0=${n}x${c}x${h}x${w} --shape 1=${n}x${h}x${w}x${c} --check
  run "$@" $R $b --entry nhwc_to_nchw_f32 --shape 0=${n}x${h}x${w}x${c} --shape 1=${n}x${c}x${h}x${w} --check
}
for s in "2 32 4 12" "8 64 56 56" "1 36 10 6" "3 48 7 16" "2 4 1 1" "3 130 7 5" "1 7 130 131" "1 1 1 1"; do
  layouts extra/perm.so $s
done
t() { "$@" --bench 50 2>&1 | sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' | head -1; }
for round in 1 2 3; do
  for shape in 32x64x56x56:32x56x56x64 64x32x112x112:64x112x112x32 8x64x56x56:8x56x56x64; do
    nchw=${shape%%:*} nhwc=${shape##*:}
    echo "TIME round=$round $nchw copy $(t $R extra/perm.so --entry copy4_f32 --shape 0=$nchw --shape 1=$nchw)"
    for side in old new; do
      b=var/$side.so; [[ $side == new ]] && b=extra/perm.so
      echo "TIME round=$round $nchw nchw_to_nhwc_f32 $side $(t $R $b --entry nchw_to_nhwc_f32 --shape 0=$nchw --shape 1=$nhwc)"
      echo "TIME round=$round $nchw nhwc_to_nchw_f32 $side $(t $R $b --entry nhwc_to_nchw_f32 --shape 0=$nhwc --shape 1=$nchw)"
    done
  done
done
for tool in memcheck racecheck; do
  for s in "2 32 4 12" "1 36 10 6" "3 130 7 5"; do
    layouts extra/perm.so $s timeout 120 compute-sanitizer --tool $tool --error-exitcode 9
  done
done
