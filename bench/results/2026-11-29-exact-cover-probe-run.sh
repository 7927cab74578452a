#!/usr/bin/env bash
# Exact-cover probe (2026-11-29): conv3d and jacobi-2d with the cover
# kernels' y and z loops replaced by one guarded iteration, by hand
# (2026-11-29-exact-cover-probe.py, valid at these sizes only), and 32x8
# blocks for conv3d.
#   stage: scripts/stage-gpu.sh at d8f4f4e, then polybench/<name>.so for
#     the by-hand lines of 2026-11-29-exact-cover-probe.txt (copied as
#     polybench/probe.txt): c3c-32x8 (--grid-policy=cover
#     --block-shape=32,8,1), c3d-32x8 (--block-shape=32,8,1), c3x (the cover
#     kernel's --emit=mlir through the probe script, then --emit=bundle),
#     c3x-32x8 (the same from --block-shape=32,8,1), j2x (jacobi-2d, as c3x).
#   run:   bash .device/check/scripts/probe-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
PB="bin/polybench-bench polybench/probe.txt --stage polybench"
for round in 1 2 3; do
  echo "=== probe round $round"
  timeout 200 $PB --runs 30 --warmup 3 2>&1 | grep -E "^RESULT|FAIL|MISMATCH|ERROR"
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active
for spec in "conv3d conv3d_kernel 1" "conv3d twin:conv3dKernel 1" "c3x conv3d_kernel 1" "c3x-32x8 conv3d_kernel 1" "c3c-32x8 conv3d_kernel 1" \
            "jacobi-2d jacobi_2d_kernel 10" "jacobi-2d twin:jacobiSweep 10" "j2x jacobi_2d_kernel 10"; do
  set -- $spec
  kernel=${2#twin:}
  echo "=== ncu $1 $2"
  timeout 120 ncu --cache-control none --clock-control none --metrics $M \
    -k regex:$kernel --launch-skip $3 --launch-count 3 $PB --runs 2 --warmup 0 \
    --only $1 2>&1 | grep -E "^ +(gpu__|launch__|smsp__|sm__)"
done
