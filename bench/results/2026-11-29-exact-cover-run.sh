#!/usr/bin/env bash
# Cover launches of a thread an iteration along y and z too (the host
# choosing a copy looping there past 65535 blocks), 2026-11-29: checks at
# ragged sizes and at sizes that run the looping copy, then kernel times
# against the default grid-stride launch for five 3-D stencils.
#   stage: scripts/stage-gpu.sh, then cover/<name>-{default,cover}.so
#     (threadbind-compile with and without --grid-policy=cover) for
#     PolyBench conv3d, heat-3d (test/Integration/Programs), box27, box27s,
#     grad3d (bench/blockshape).
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
entry() { case $1 in heat3d) echo kernel ;; *) echo "$1" ;; esac; }
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
# 3x300000x8 needs 75000 blocks along y (4 rows a block) and 70000x3x8
# 69998 along z: the looping copy.
for name in conv3d heat3d box27 box27s grad3d; do
  for side in default cover; do
    for size in 37x45x131 5x300x7 130x3x70 33x34x35 3x300000x8 70000x3x8; do
      if $RUN cover/$name-$side.so --entry $(entry $name) --shape 0=$size \
          --shape 1=$size $(extra $name 2) --check --rtol 1e-4 --atol 1e-4 \
          >/dev/null 2>&1; then
        echo "CHECK $name $side $size ok"
      else
        echo "CHECK $name $side $size FAILED"
      fi
    done
  done
done
if command -v compute-sanitizer >/dev/null; then
  for size in 33x34x35 3x300000x8; do
    out=$(compute-sanitizer --tool memcheck --error-exitcode 9 $RUN cover/conv3d-cover.so \
      --entry conv3d --shape 0=$size --shape 1=$size --check --rtol 1e-4 --atol 1e-4 2>&1)
    echo "MEMCHECK conv3d-cover $size rc=$? $(grep -c 'Invalid' <<<"$out") invalid"
  done
fi
for round in 1 2; do
  for size in 256x256x256 320x320x320 255x257x259; do
    for name in conv3d heat3d box27 box27s grad3d; do
      for side in default cover; do
        out=$($RUN cover/$name-$side.so --entry $(entry $name) --shape 0=$size \
          --shape 1=$size $(extra $name) --bench 20 2>&1)
        t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
        echo "TIME round=$round size=$size $name $side ${t:-?}"
      done
    done
  done
done
