#!/usr/bin/env bash
# Is conv3d's and jacobi-2d's last gap to their twins the grid? ThreadBind's
# kernels against the twins' with more blocks of grid-stride grid, cover
# grids and other block shapes, conv3d with its start on a line.
#   stage: the stage of 2026-11-29-split-run.sh, plus in polybench/ (all
#     with threadbind-compile at 43ce111; "al" with the aligned start forced
#     for every nest): conv3d-al-cover (--grid-policy=cover),
#     conv3d-al-cover-b32x8 (and --block-shape=32,8,1), conv3d-al-b32x8,
#     conv3d-al-mb{2048,4096,8192} (--max-blocks=N), jacobi-2d-mb{2112,4224},
#     jacobi-2d-b32x4 (--block-shape=32,4,1) and jacobi-2d-cover-b32x4;
#     2026-11-29-grid-probe.txt as polybench/grid-probe.txt.
#   run:   bash .device/check/scripts/grid-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
PB="bin/polybench-bench polybench/grid-probe.txt --stage polybench"
for round in 1 2; do
  echo "=== probe round $round"
  timeout 250 $PB --runs 30 --warmup 3 2>&1 | grep -E "^RESULT|FAIL|MISMATCH|ERROR"
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size
for b in conv3d-al-cover conv3d-al-mb8192; do
  echo "=== ncu $b"
  timeout 100 ncu --cache-control none --clock-control none --metrics $M \
    -k regex:conv3d_kernel --launch-skip 1 --launch-count 3 $PB --runs 2 \
    --warmup 0 --only $b 2>&1 |
    grep -E "^  [a-zA-Z_0-9]+.*\(|^ +(gpu__|launch__|smsp__|sm__|l1tex__|lts__)"
done
