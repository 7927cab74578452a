#!/usr/bin/env bash
# Stencils widened (a row's shifted reads taken from its aligned vectors),
# 2026-11-29: checks against the CPU reference at ragged sizes, memcheck,
# then kernel times against the same programs compiled before the change.
#   stage: scripts/stage-gpu.sh, then widen/<name>-{old,oldcover,new}.so
#     (threadbind-compile before the change, default options and
#     --grid-policy=cover, and after it with --grid-policy=cover) for
#     PolyBench conv3d, conv2d, jacobi-2d, fdtd-2d, heat-3d
#     (test/Integration/Programs), box27s and grad3d (bench/blockshape);
#     and bench/stencil-widen/probe.cu built by nvcc there.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
# name entry args-for-size(SIZE): the flags threadbind-run takes.
args() { # args NAME SIZE [STEPS]
  local name=$1 size=$2 steps=${3:-3}
  case $name in
    heat3d) echo "--entry kernel --shape 0=$size --shape 1=$size --scalar 2=$steps" ;;
    jacobi2d) echo "--entry jacobi_2d --scalar 0=$steps --shape 1=$size --shape 2=$size" ;;
    fdtd2d) echo "--entry fdtd_2d --shape 0=$size --shape 1=$size --shape 2=$size --shape 3=$steps" ;;
    *) echo "--entry $name --shape 0=$size --shape 1=$size" ;;
  esac
}
THREE="conv3d heat3d box27s grad3d"
TWO="conv2d jacobi2d fdtd2d"
for name in $THREE; do
  for size in 37x45x131 5x300x7 130x3x70 33x34x35 3x3000x8 3x300000x8 64x64x64 1x1x1 4x4x5; do
    if $RUN widen/$name-new.so $(args $name $size) --check --rtol 1e-4 \
        --atol 1e-4 >/dev/null 2>&1; then
      echo "CHECK $name $size ok"
    else
      echo "CHECK $name $size FAILED"
    fi
  done
done
for name in $TWO; do
  sizes="1000x777 1000x776 37x41 1x1 3x5000 4096x33 129x130 70000x5"
  # jacobi-2d's loops take both bounds from the first size.
  [[ $name == jacobi2d ]] && sizes="1000x1000 37x37 1x1 4x4 129x129 333x333"
  for size in $sizes; do
    if $RUN widen/$name-new.so $(args $name $size) --check --rtol 1e-4 \
        --atol 1e-4 >/dev/null 2>&1; then
      echo "CHECK $name $size ok"
    else
      echo "CHECK $name $size FAILED"
    fi
  done
done
if command -v compute-sanitizer >/dev/null; then
  for case in "conv3d 33x34x35" "heat3d 37x45x131" "jacobi2d 333x333" \
      "jacobi2d 129x129" "fdtd2d 37x41" "conv2d 1000x777" "conv2d 70000x5"; do
    set -- $case
    out=$(compute-sanitizer --tool memcheck --error-exitcode 9 $RUN \
      widen/$1-new.so $(args $1 $2) --check --rtol 1e-4 --atol 1e-4 2>&1)
    echo "MEMCHECK $1 $2 rc=$? $(grep -c 'Invalid' <<<"$out") invalid"
  done
fi
for round in 1 2; do
  for size in 256x256x256 320x320x320 255x257x259; do
    for name in $THREE; do
      for side in old oldcover new; do
        out=$($RUN widen/$name-$side.so $(args $name $size 10) --bench 20 2>&1)
        t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
        echo "TIME round=$round size=$size $name $side ${t:-?}"
      done
    done
  done
  for size in 1000x1000 4096x4096 4095x4095 2048x2048; do
    for name in $TWO; do
      for side in old oldcover new; do
        out=$($RUN widen/$name-$side.so $(args $name $size 20) --bench 20 2>&1)
        t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
        echo "TIME round=$round size=$size $name $side ${t:-?}"
      done
    done
  done
done
if [[ -f widen/probe.cu ]] && command -v nvcc >/dev/null; then
  nvcc -O3 -arch=sm_90 -o /tmp/probe widen/probe.cu && /tmp/probe
fi
