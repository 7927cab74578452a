#!/usr/bin/env bash
# Staged i8 layout changes with 16-byte accesses where the host finds the
# rows aligned (this change, extra/perm.so), against the 4-byte launch with
# register transposes alone (var/reg.so) and the compiler before both
# (var/old.so); checks at aligned and ragged shapes, racecheck and
# memcheck on the 16-byte launch, kernel times interleaved over three
# rounds beside a copy of the same bytes.
#   stage: scripts/stage-gpu.sh; copy old.so and reg.so into
#          .device/check/var/ and this script into scripts/.
#   run:   bash .device/check/scripts/i8-wide-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "--- $*"; "$@" 2>&1 | grep -E "check:|ERROR SUMMARY|error" | head -4; echo "rc=${PIPESTATUS[0]}"; }
layouts() { # bundle n c h w [prefix...]
  local b=$1 n=$2 c=$3 h=$4 w=$5
  shift 5
  run "$@" $R $b --entry nchw_to_nhwc --shape 0=${n}x${c}x${h}x${w} --shape 1=${n}x${h}x${w}x${c} --check
  run "$@" $R $b --entry nhwc_to_nchw --shape 0=${n}x${h}x${w}x${c} --shape 1=${n}x${c}x${h}x${w} --check
}
for s in "2 32 4 12" "8 64 56 56" "1 144 10 16" "3 48 7 16" "2 16 1 1" "3 130 7 5" "1 7 130 131" "1 1 1 1"; do
  layouts extra/perm.so $s
done
run $R extra/perm.so --entry transpose --shape 0=777x1000 --shape 1=1000x777 --check
# Kernel times, median of 50, interleaved over three rounds.
t() { "$@" --bench 50 2>&1 | sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' | head -1; }
for round in 1 2 3; do
  for shape in 32x256x56x56:32x56x56x256 64x128x112x112:64x112x112x128 8x64x56x56:8x56x56x64; do
    nchw=${shape%%:*} nhwc=${shape##*:}
    echo "TIME round=$round $nchw copy $(t $R extra/perm.so --entry copy4 --shape 0=$nchw --shape 1=$nchw)"
    for side in old reg new; do
      b=var/$side.so; [[ $side == new ]] && b=extra/perm.so
      echo "TIME round=$round $nchw nchw_to_nhwc $side $(t $R $b --entry nchw_to_nhwc --shape 0=$nchw --shape 1=$nhwc)"
      echo "TIME round=$round $nchw nhwc_to_nchw $side $(t $R $b --entry nhwc_to_nchw --shape 0=$nhwc --shape 1=$nchw)"
    done
  done
done
# The transposes, which this change leaves to the f32 launches.
for s in 8192x8192 8191x8191; do
  echo "TIME transpose $s $(t $R extra/perm.so --entry transpose --shape 0=$s --shape 1=$s)"
done
# Sanitizers last, each under a time limit (a first racecheck run of this
# script on a fresh machine sat past 500 s on the smallest shape once; the
# same run later took seconds).
for tool in memcheck racecheck; do
  for s in "2 16 1 1" "2 32 4 12" "1 144 10 16" "3 130 7 5"; do
    layouts extra/perm.so $s timeout 120 compute-sanitizer --tool $tool --error-exitcode 9
  done
done
