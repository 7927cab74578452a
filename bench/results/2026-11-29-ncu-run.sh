#!/usr/bin/env bash
# The two ncu calls of 2026-11-29 (H200), as run from a staged tree:
#   sass: the SASS of ThreadBind's conv3d kernels (default grid-stride, and
#     --grid-policy=cover --block-shape=32,8,1, saved with --emit cubin as
#     sass/tb-default.cubin and sass/tb-cover.cubin) and of hand.cu's twin
#     (nvcc -O3 -arch=sm_90 -cubin, sass/hand.cubin); then ncu, clocks and
#     caches left as they run, on the same-grid pair (TB cover 32x8 and
#     the twin) and on the default mapping, through polybench-bench and
#     2026-11-29-probe.txt.  Log: 2026-11-29-conv3d-ncu-h200.log
#   align: the racecheck negative control (2026-11-29-racy-control.py as
#     scripts/racy-control.py), then ncu on the 3-D stencils compiled with
#     (align/*-new.so) and without (align/*-old.so) the aligned start, 256^3.
#     Log: 2026-11-29-align-3d-ncu-h200.log
#   bash scripts/ncu-run.sh sass|align
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
if [[ ${1:-} == sass ]]; then
  for c in tb-default tb-cover; do
    echo "=== sass $c"
    cuobjdump -sass sass/$c.cubin | grep -E "Function|^\s+/\*[0-9a-f]{4}\*/" |
      sed -n '/conv3d_kernel$/,/Function/p' | head -400
  done
  echo "=== sass hand"
  cuobjdump -sass sass/hand.cubin | awk '/Function.*conv3dKernel/,/Function.*[^l]$/' |
    grep -E "Function|^\s+/\*[0-9a-f]{4}\*/" | head -200
  M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
  for b in conv3d-cover-b32x8 conv3d; do
    echo "=== ncu $b"
    timeout 200 ncu --cache-control none --clock-control none --metrics $M \
      --launch-skip 2 --launch-count 4 bin/polybench-bench polybench/probe.txt \
      --stage polybench --runs 2 --warmup 0 --only $b 2>&1 |
      grep -E "^  [a-zA-Z_0-9]+.*\(|^ +(gpu__|dram__|launch__|smsp__|sm__|l1tex__|lts__)"
  done
  exit 0
fi
echo "=== racy control"
for mode in intact racy; do
  compute-sanitizer --tool racecheck --print-limit 3 python3 scripts/racy-control.py "$STAGE" $mode 2>&1 |
    grep -E "removed|row_sums|RACECHECK SUMMARY|ERROR SUMMARY|Error|hazard" | head -8
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,sm__sass_inst_executed_op_global_ld.sum
for name in conv3d heat3d box27s; do
  for side in old new; do
    entry=$name; extra=""; [[ $name == heat3d ]] && entry=kernel extra="--scalar 2=1"
    echo "=== ncu $name $side"
    timeout 100 ncu --cache-control none --clock-control none --metrics $M \
      --launch-skip 1 --launch-count 2 bin/threadbind-run align/$name-$side.so \
      --entry $entry --shape 0=256x256x256 --shape 1=256x256x256 $extra --bench 3 2>&1 |
      grep -E "^ +(gpu__|dram__|launch__|smsp__|sm__|l1tex__|lts__)"
  done
done
