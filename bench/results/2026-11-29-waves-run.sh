#!/usr/bin/env bash
# More blocks than are resident for 3-D stencils' grid-stride grids: conv3d
# with 8192 blocks beat its twin where 1024 (one resident wave) did not
# (2026-11-29-grid-run.sh). The balanced 3-D stencils (conv3d, heat-3d,
# grad3d) and a greedy one (box27s) compiled with the grid capped at the
# resident blocks (mb0: the host's query, 1056 blocks of 256 threads on an
# H200) and at 4 and 8 times that (--max-blocks=4224, 8448), checked at
# ragged sizes and timed with threadbind-run --bench 20, two rounds; and
# PolyBench conv3d the same three ways against its twin.
#   stage: the stage of 2026-11-29-split-run.sh, plus waves/<name>-mb<N>.so
#     and polybench/conv3d-mb{4224,8448}.so (threadbind-compile at f786eb2),
#     2026-11-29-waves-probe.txt as polybench/waves-probe.txt.
#   run:   bash .device/check/scripts/waves-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
entry() { case $1 in heat3d) echo kernel ;; *) echo "$1" ;; esac; }
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
for name in conv3d heat3d grad3d box27s; do
  for mb in 0 4224 8448; do
    for size in 37x45x131 130x3x70 300x41x33; do
      if $RUN waves/$name-mb$mb.so --entry $(entry $name) --shape 0=$size \
          --shape 1=$size $(extra $name 3) --check --rtol 1e-4 --atol 1e-4 \
          >/dev/null 2>&1; then
        echo "CHECK $name mb$mb $size ok"
      else
        echo "CHECK $name mb$mb $size FAILED"
      fi
    done
  done
done
for round in 1 2; do
  for size in 256x256x256 320x320x320 384x384x384 448x448x448 255x257x259; do
    for name in conv3d heat3d grad3d box27s; do
      for mb in 0 4224 8448; do
        out=$($RUN waves/$name-mb$mb.so --entry $(entry $name) --shape 0=$size \
          --shape 1=$size $(extra $name) --bench 20 2>&1)
        t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
        g=$(grep -o 'grid [0-9x]*' <<<"$out" | head -1)
        echo "TIME round=$round size=$size $name mb$mb ${t:-?} ${g:-}"
      done
    done
  done
done
PB="bin/polybench-bench polybench/waves-probe.txt --stage polybench"
for round in 1 2; do
  echo "=== probe round $round"
  timeout 200 $PB --runs 30 --warmup 3 2>&1 | grep -E "^RESULT|FAIL|MISMATCH|ERROR"
done
