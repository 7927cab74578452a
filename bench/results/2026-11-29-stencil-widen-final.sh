#!/usr/bin/env bash
# The last change of 2026-11-29's stencil widening (the kernel takes the
# host's word for the rows' alignment), one round: checks at odd sizes,
# then kernel times against the programs compiled before the change
# (default and cover), as in 2026-11-29-stencil-widen-run.sh.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
args() {
  local name=$1 size=$2 steps=${3:-3}
  case $name in
    heat3d) echo "--entry kernel --shape 0=$size --shape 1=$size --scalar 2=$steps" ;;
    jacobi2d) echo "--entry jacobi_2d --scalar 0=$steps --shape 1=$size --shape 2=$size" ;;
    fdtd2d) echo "--entry fdtd_2d --shape 0=$size --shape 1=$size --shape 2=$size --shape 3=$steps" ;;
    *) echo "--entry $name --shape 0=$size --shape 1=$size" ;;
  esac
}
for case in "conv3d 37x45x131" "heat3d 33x34x35" "box27s 5x300x7" "grad3d 130x3x70" \
    "conv3d 3x300000x8" "jacobi2d 333x333" "jacobi2d 64x64" "conv2d 1000x777" "fdtd2d 129x130"; do
  set -- $case
  if $RUN widen/$1-new.so $(args $1 $2) --check --rtol 1e-4 --atol 1e-4 >/dev/null 2>&1; then
    echo "CHECK $1 $2 ok"
  else
    echo "CHECK $1 $2 FAILED"
  fi
done
if command -v compute-sanitizer >/dev/null; then
  out=$(compute-sanitizer --tool memcheck --error-exitcode 9 $RUN widen/conv3d-new.so \
    $(args conv3d 37x45x131) --check --rtol 1e-4 --atol 1e-4 2>&1)
  echo "MEMCHECK conv3d 37x45x131 rc=$? $(grep -c 'Invalid' <<<"$out") invalid"
fi
for size in 256x256x256 320x320x320 255x257x259; do
  for name in conv3d heat3d box27s grad3d; do
    for side in old oldcover new; do
      out=$($RUN widen/$name-$side.so $(args $name $size 10) --bench 20 2>&1)
      t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
      echo "TIME size=$size $name $side ${t:-?}"
    done
  done
done
for size in 1000x1000 4096x4096 4095x4095; do
  for name in conv2d jacobi2d fdtd2d; do
    for side in old oldcover new; do
      out=$($RUN widen/$name-$side.so $(args $name $size 20) --bench 20 2>&1)
      t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
      echo "TIME size=$size $name $side ${t:-?}"
    done
  done
done
