#!/usr/bin/env bash
# Block shapes for 3-D stencils again (2026-11-28): is it the loops in
# box27's body or its 27 loads that make flat blocks lose? box27 (loops)
# beside box27s (the same 27 loads in a straight line), conv3d, heat-3d and
# grad3d, each with the default shape, 64x4x1 and 32x8x1, checked at
# a ragged size and timed (threadbind-run --bench, kernel time median) at
# 256^3 and 192^3, three rounds with the variants interleaved.
#
#   bash bench/results/2026-11-28-block-shape-3d-again-run.sh stage   # here
#   bash .device/check/scripts/block-shape-3d-again-run.sh run        # GPU machine
set -euo pipefail
PROGRAMS=(
  "conv3d bench/polybench/conv3d.mlir conv3d"
  "heat3d test/Integration/Programs/heat-3d.mlir kernel"
  "box27 bench/blockshape/box27.mlir box27"
  "box27s bench/blockshape/box27s.mlir box27s"
  "grad3d bench/blockshape/grad3d.mlir grad3d"
)
VARIANTS=(
  "default"
  "64x4x1 --block-shape=64,4,1"
  "32x8x1 --block-shape=32,8,1"
)
if [[ ${1:-} == stage ]]; then
  source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"
  OUT=$THREADBIND_ROOT/.device/check/shapes
  mkdir -p "$OUT" "$THREADBIND_ROOT/.device/check/scripts"
  cp "${BASH_SOURCE[0]}" "$THREADBIND_ROOT/.device/check/scripts/block-shape-3d-again-run.sh"
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
for round in 1 2 3; do
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
