#!/usr/bin/env bash
# Two questions in one call:
#  1. Stencils in 3-D nests started on a cache line (alignStencilStart for
#     nests of three loops; left out on 2026-11-27 because conv3d's kernel
#     then took 40 registers, now 32): five 3-D programs compiled before
#     (-old) and after (-new), checked at ragged sizes, timed by
#     threadbind-run --bench 20 in two interleaved rounds; and PolyBench
#     conv3d three ways aligned (-al) beside the staged conv3d.
#  2. The runtime asking the driver for the kernel on every launch (lib-old)
#     against remembering it by name (lib), on jacobi-2d at 1000^2 and at
#     16^2 x 500 steps, where the host's launch path is all there is.
#   stage: scripts/stage-gpu.sh; the bundles in .device/check/align and
#     polybench/*-al.so, polybench/probe2.txt
#     (bench/results/2026-11-29-probe2.txt), lib-old/ the runtime before.
#   run:   bash .device/check/scripts/align3d-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
entry() { case $1 in heat3d) echo kernel ;; *) echo "$1" ;; esac; }
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
for name in conv3d heat3d box27 box27s grad3d; do
  for side in old new; do
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
  for size in 256x256x256 320x320x320 384x384x384 255x257x259; do
    for name in conv3d heat3d box27s; do
      for side in old new; do
        out=$($RUN align/$name-$side.so --entry $(entry $name) --shape 0=$size \
          --shape 1=$size $(extra $name) --bench 20 2>&1)
        t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
        echo "TIME round=$round size=$size $name $side ${t:-?}"
      done
    done
  done
done
PB="bin/polybench-bench polybench/probe2.txt --stage polybench"
for round in 1 2; do
  for rt in lib-old lib; do
    echo "=== probe2 runtime=$rt round $round"
    LD_LIBRARY_PATH=$PWD/$rt:/usr/local/cuda/lib64 timeout 200 $PB --runs 30 --warmup 3 2>&1 |
      grep -E "^RESULT|FAIL|MISMATCH|ERROR"
  done
done
