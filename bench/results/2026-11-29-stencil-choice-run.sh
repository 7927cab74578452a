#!/usr/bin/env bash
# Stencils' host choice, 2026-11-29, on the GPU machine from the stage
# (2026-11-29-stencil-choice-stage.sh puts this in <stage>/choice): checks
# against the CPU reference at aligned sizes (the widened cover launch
# runs) and odd ones (the grid-stride launch), memcheck on both, then
# kernel times of old (--stencil-cover=false), cover and new (the
# default), one round, at sizes whose rows start alike and at odd ones.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
args() { # args NAME SIZE [STEPS]
  local name=$1 size=$2 steps=${3:-3}
  case $name in
    heat3d) echo "--entry kernel --shape 0=$size --shape 1=$size --scalar 2=$steps" ;;
    jacobi2d) echo "--entry jacobi_2d --scalar 0=$steps --shape 1=$size --shape 2=$size" ;;
    fdtd2d) echo "--entry fdtd_2d --shape 0=$size --shape 1=$size --shape 2=$size --shape 3=$steps" ;;
    *) echo "--entry $name --shape 0=$size --shape 1=$size" ;;
  esac
}
for case in "conv3d 12x20x64" "conv3d 37x45x131" "heat3d 20x24x64" "heat3d 33x34x35" \
    "box27s 6x300x8" "box27s 5x300x7" "grad3d 130x4x72" "grad3d 130x3x70" \
    "conv3d 3x300000x8" "jacobi2d 332x332" "jacobi2d 333x333" "jacobi2d 64x64" \
    "conv2d 1000x776" "conv2d 1000x777" "conv2d 600000x8" "fdtd2d 129x132" \
    "fdtd2d 129x130"; do
  set -- $case
  if $RUN choice/$1-new.so $(args $1 $2) --check --rtol 1e-4 --atol 1e-4 >/dev/null 2>&1; then
    echo "CHECK $1 $2 ok"
  else
    echo "CHECK $1 $2 FAILED"
  fi
done
if command -v compute-sanitizer >/dev/null; then
  for case in "conv3d 12x20x64" "conv3d 13x17x37" "jacobi2d 332x332" "jacobi2d 333x333" \
      "fdtd2d 37x44" "conv2d 600000x8"; do
    set -- $case
    out=$(compute-sanitizer --tool memcheck --error-exitcode 9 $RUN \
      choice/$1-new.so $(args $1 $2) --check --rtol 1e-4 --atol 1e-4 2>&1)
    echo "MEMCHECK $1 $2 rc=$? $(grep -c 'Invalid' <<<"$out") invalid"
  done
fi
for size in 256x256x256 320x320x320 255x257x259; do
  for name in conv3d heat3d box27s grad3d; do
    for side in old cover new; do
      out=$($RUN choice/$name-$side.so $(args $name $size 10) --bench 20 2>&1)
      t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
      echo "TIME size=$size $name $side ${t:-?}"
    done
  done
done
for size in 1000x1000 4096x4096 4095x4095; do
  for name in conv2d jacobi2d fdtd2d; do
    for side in old cover new; do
      out=$($RUN choice/$name-$side.so $(args $name $size 20) --bench 20 2>&1)
      t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
      echo "TIME size=$size $name $side ${t:-?}"
    done
  done
done
