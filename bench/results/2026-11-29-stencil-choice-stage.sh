#!/usr/bin/env bash
# Stencils' host choice, 2026-11-29 (a widened cover launch where every
# row starts alike, the grid-stride launch otherwise): stages, after
# scripts/stage-gpu.sh and on this machine, every stencil three ways into
# <stage>/choice, for 2026-11-29-stencil-choice-run.sh there:
#   old    --stencil-cover=false, the default before the change
#   cover  --grid-policy=cover, each stencil's cover launch alone
#   new    the default
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STAGE=${1:-$ROOT/.device/check}
COMPILE=${THREADBIND_COMPILE:-$ROOT/build/bin/threadbind-compile}
mkdir -p "$STAGE/choice"
cp "$ROOT/bench/results/2026-11-29-stencil-choice-run.sh" "$STAGE/choice/run.sh"
while read -r name src; do
  for side in old cover new; do
    case $side in
      old) flags=--stencil-cover=false ;;
      cover) flags=--grid-policy=cover ;;
      new) flags= ;;
    esac
    "$COMPILE" "$ROOT/$src" --chip sm_90 --emit bundle \
      -o "$STAGE/choice/$name-$side.so" $flags
  done
done <<'LIST'
conv3d bench/polybench/conv3d.mlir
heat3d test/Integration/Programs/heat-3d.mlir
box27s bench/blockshape/box27s.mlir
grad3d bench/blockshape/grad3d.mlir
conv2d bench/polybench/conv2d.mlir
jacobi2d bench/polybench/jacobi-2d.mlir
fdtd2d bench/polybench/fdtd-2d.mlir
LIST
