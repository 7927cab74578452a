#!/usr/bin/env bash
# Where conv3d's and jacobi-2d's last few percent go (PolyBench at 0.90 and
# 0.98 of the twin on 2026-11-28), and a sanitizer sweep over everything
# staged that uses shared memory or barriers.
#   stage: scripts/stage-gpu.sh; then, with the build's threadbind-compile,
#     bundles conv3d-b32x8 (--block-shape=32,8,1), conv3d-cover-b32x8
#     (--grid-policy=cover --block-shape=32,8,1), jacobi-2d-b64x4
#     (--block-shape=64,4,1) and jacobi-tiny-cover (a copy of
#     jacobi-2d-cover.so) in .device/check/polybench, with probe.txt
#     (bench/results/2026-11-29-probe.txt) beside them.
#   run:   bash .device/check/scripts/probe-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
PB="bin/polybench-bench polybench/probe.txt --stage polybench"
# The same mappings, timed whole (median of 30) twice, every check kept.
for round in 1 2; do
  echo "=== probe round $round"
  timeout 200 $PB --runs 30 --warmup 3 2>&1 | grep -E "^RESULT|FAIL|MISMATCH|ERROR"
done
# Kernel time alone under ncu, clocks and caches left as they run, and as
# ncu sets them (base clocks, caches flushed).
M=gpu__time_duration.sum,dram__bytes_read.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for mode in free fixed; do
  extra=""
  [[ $mode == free ]] && extra="--cache-control none --clock-control none"
  for b in conv3d conv3d-cover-b32x8 jacobi-2d; do
    echo "=== ncu $mode $b"
    # Past the launches at the check sizes (5 steps of two sweeps a side).
    skip=2
    [[ $b == jacobi* ]] && skip=20
    timeout 120 "$NCU" $extra --metrics $M --launch-skip $skip --launch-count 12 \
      $PB --runs 2 --warmup 0 --only $b 2>&1 |
      grep -E "^  [a-zA-Z_0-9]+.*\(|^ +(gpu__|dram__|launch__)" | head -60
  done
done
echo "=== sanitize-shared"
timeout 420 python3 scripts/sanitize-shared.py --jobs 12 > /tmp/san.log 2>&1
echo "rc=$?"
grep -v " ok$" /tmp/san.log | tail -60
grep -c " ok$" /tmp/san.log
[ -n "$OUT" ] && cp /tmp/san.log "$OUT/sanitize-shared.log"
