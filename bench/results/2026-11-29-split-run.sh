#!/usr/bin/env bash
# The constant of an access's last index added after the rest of its i32
# offset (threadbind-narrow-indices, 2026-11-29): does it make the aligned
# start of 3-D stencils pay, and where do jacobi-2d's kernels lose to the
# twin's?
#   stage: scripts/stage-gpu.sh from the working tree with the change; then
#     align/<name>-kept.so (the build's threadbind-compile) and
#     align/<name>-moved.so (the same with the aligned start forced for every
#     nest) for conv3d, heat3d, box27s, box27, grad3d; polybench/conv3d-al.so
#     (forced) and conv3d-ragged.so, conv3d-tiny.so and jacobi-tiny.so
#     (copies of conv3d.so and jacobi-2d.so), with 2026-11-29-split-probe.txt as
#     polybench/split-probe.txt and this script as scripts/split-run.sh.
#   run:   bash .device/check/scripts/split-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
entry() { case $1 in heat3d) echo kernel ;; *) echo "$1" ;; esac; }
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
for name in conv3d heat3d box27 box27s grad3d; do
  for side in kept moved; do
    for size in 37x45x131 5x300x7 130x3x70 33x34x35; do
      if $RUN align/$name-$side.so --entry $(entry $name) --shape 0=$size \
          --shape 1=$size $(extra $name 3) --check --rtol 1e-4 --atol 1e-4 \
          >/dev/null 2>&1; then
        echo "CHECK $name $side $size ok"
      else
        echo "CHECK $name $side $size FAILED"
      fi
    done
  done
done
for round in 1 2; do
  for size in 256x256x256 320x320x320 255x257x259; do
    for name in conv3d box27s; do
      for side in kept moved; do
        out=$($RUN align/$name-$side.so --entry $(entry $name) --shape 0=$size \
          --shape 1=$size $(extra $name) --bench 20 2>&1)
        t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
        echo "TIME round=$round size=$size $name $side ${t:-?}"
      done
    done
  done
done
PB="bin/polybench-bench polybench/split-probe.txt --stage polybench"
for round in 1 2; do
  echo "=== probe round $round"
  timeout 200 $PB --runs 30 --warmup 3 2>&1 | grep -E "^RESULT|FAIL|MISMATCH|ERROR"
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,launch__registers_per_thread,launch__grid_size
# Each side's kernels past the check sizes' launches: ThreadBind's (named
# after the function) and the twin's (conv3dKernel, jacobiSweep).
for spec in "conv3d conv3d_kernel 1" "conv3d twin:conv3dKernel 1" \
            "conv3d-al conv3d_kernel 1" "jacobi-2d jacobi_2d_kernel 10" \
            "jacobi-2d twin:jacobiSweep 10" "jacobi-2d-cover jacobi_2d_kernel 10"; do
  set -- $spec
  kernel=${2#twin:}
  echo "=== ncu $1 $2"
  timeout 120 ncu --cache-control none --clock-control none --metrics $M \
    -k regex:$kernel --launch-skip $3 --launch-count 4 $PB --runs 2 --warmup 0 \
    --only $1 2>&1 |
    grep -E "^  [a-zA-Z_0-9]+.*\(|^ +(gpu__|dram__|launch__|smsp__|sm__|l1tex__|lts__)"
done
