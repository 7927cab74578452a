#!/usr/bin/env bash
# 3-D nests of few loads in 64x4x1 blocks (this change) against 32x4x2
# (before it): five stencils compiled both ways (shapes/NAME-default.so by
# the compiler before, shapes/NAME-new.so after), checked and timed; the
# PolyBench conv3d against its hand twin, new (conv3d) and old
# (conv3d-old: --block-shape=32,4,2, the old default, a line added to the
# staged polybench.txt), three times; then the whole PolyBench suite.
#   run: bash .device/check/scripts/flat-3d-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
entry() { case $1 in heat3d) echo kernel ;; *) echo "$1" ;; esac; }
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
NAMES="conv3d heat3d box27 box27s grad3d"
for n in $NAMES; do
  for side in default new; do
    if $R shapes/$n-$side.so --entry $(entry $n) --shape 0=37x45x131 \
        --shape 1=37x45x131 $(extra $n 3) --check --rtol 1e-4 --atol 1e-4 \
        2>&1 | grep -q "check: ok"; then echo "CHECK $n $side ok"; else echo "CHECK $n $side FAILED"; fi
  done
done
for round in 1 2; do
  for size in 256x256x256 192x192x192; do
    for n in $NAMES; do
      for side in default new; do
        t=$($R shapes/$n-$side.so --entry $(entry $n) --shape 0=$size \
          --shape 1=$size $(extra $n) --bench 20 2>&1 |
          sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p')
        echo "TIME round=$round size=$size $n $side ${t:-?}"
      done
    done
  done
done
for round in 1 2 3; do
  echo "=== polybench conv3d round $round"
  bin/polybench-bench polybench/polybench.txt --stage polybench --runs 30 \
    --warmup 3 --only conv3d,conv3d-old 2>&1 | grep -E "^RESULT|FAIL|ok" | head -12
done
echo "=== polybench suite"
timeout 300 bin/polybench-bench polybench/polybench.txt --stage polybench \
  --runs 10 --warmup 2 2>&1 | grep -E "^RESULT|FAIL|speedup|\|" | head -150
