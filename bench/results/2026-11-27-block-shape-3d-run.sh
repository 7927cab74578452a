#!/usr/bin/env bash
# Block shapes for 3-D nests, measured (issue 24: conv3d at 0.79 of its hand
# twin; session 13 found --block-shape=32,8,1 brings it level, but slowed
# heat-3d at 256^3 in one run). Four 3-D stencils, each compiled with the
# default shape and the alternatives, checked against the CPU reference at
# a ragged size and timed (threadbind-run --bench, kernel time median) at
# 256^3 and 192^3, two rounds with the variants interleaved.
#
#   bash bench/results/2026-11-27-block-shape-3d-run.sh stage   # here
#   bash .device/check/scripts/block-shape-3d-run.sh run        # GPU machine
set -euo pipefail
PROGRAMS=(
  "conv3d bench/polybench/conv3d.mlir conv3d"
  "heat3d test/Integration/Programs/heat-3d.mlir kernel"
  "box27 bench/blockshape/box27.mlir box27"
  "grad3d bench/blockshape/grad3d.mlir grad3d"
)
VARIANTS=(
  "default"
  "32x8x1 --block-shape=32,8,1"
  "32x2x4 --block-shape=32,2,4"
  "64x4x1 --block-shape=64,4,1"
  "64x2x2 --block-shape=64,2,2"
  "32x16x1 --block-shape=32,16,1 --threads-per-block=512"
  "cover --grid-policy=cover"
  "32x8x1-cover --block-shape=32,8,1 --grid-policy=cover"
)
if [[ ${1:-} == stage ]]; then
  source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"
  OUT=$THREADBIND_ROOT/.device/check/shapes
  mkdir -p "$OUT" "$THREADBIND_ROOT/.device/check/scripts"
  cp "${BASH_SOURCE[0]}" "$THREADBIND_ROOT/.device/check/scripts/block-shape-3d-run.sh"
  for p in "${PROGRAMS[@]}"; do
    read -r name file entry <<<"$p"
    for v in "${VARIANTS[@]}"; do
      read -r tag flags <<<"$v"
      threadbind-compile "$THREADBIND_ROOT/$file" --emit bundle \
        -o "$OUT/$name-$tag.so" $flags
    done
  done
  exit 0
fi
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LD_LIBRARY_PATH=$STAGE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=$STAGE/bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
for p in "${PROGRAMS[@]}"; do
  read -r name file entry <<<"$p"
  for v in "${VARIANTS[@]}"; do
    read -r tag flags <<<"$v"
    if "$RUN" "$STAGE/shapes/$name-$tag.so" --entry "$entry" \
        --shape 0=37x45x131 --shape 1=37x45x131 $(extra "$name" 3) \
        --check --rtol 1e-4 --atol 1e-4 >/dev/null 2>&1; then
      echo "CHECK $name $tag ok"
    else
      echo "CHECK $name $tag FAILED"
    fi
  done
done
for round in 1 2; do
  for size in 256x256x256 192x192x192; do
    for p in "${PROGRAMS[@]}"; do
      read -r name file entry <<<"$p"
      for v in "${VARIANTS[@]}"; do
        read -r tag flags <<<"$v"
        t=$("$RUN" "$STAGE/shapes/$name-$tag.so" --entry "$entry" \
          --shape 0=$size --shape 1=$size $(extra "$name") --bench 20 \
          2>&1 | sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p')
        echo "TIME round=$round size=$size $name $tag ${t:-?}"
      done
    done
  done
done
