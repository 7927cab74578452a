#!/usr/bin/env bash
#===- bench/stage.sh - Build everything the benchmark suite runs ---------===#
#
# On a machine with the toolchain (LLVM/MLIR 22, the CUDA toolkit's nvcc):
# compiles every kernel of bench/suite.txt three ways (ThreadBind, upstream
# MLIR tiled, upstream MLIR default) into bundles, the hand-written twins
# into a cubin, and copies them with the harness and the runtime into one
# directory (default .device/bench) that runs where only the driver is.
# ThreadBind's kernels are also kept as cubins, for their SASS, and the
# reduction bundles with threadbind-run and sanitize.sh, for
# compute-sanitizer.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/scripts/setup.sh"
STAGE=${1:-$ROOT/.device/bench}
NVCC=${NVCC:-$(command -v nvcc || echo "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc")}
CHIP=${CHIP:-$(threadbind-compile --print-default-chip)}

rm -rf "$STAGE"
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/cubin" "$STAGE/reductions"
cp "$THREADBIND_BUILD_DIR/bin/threadbind-bench" \
  "$THREADBIND_BUILD_DIR/bin/threadbind-run" "$STAGE/bin/"
cp "$THREADBIND_BUILD_DIR/lib/libThreadBindRuntime.so" "$STAGE/lib/"
cp "$ROOT/bench/suite.txt" "$ROOT/bench/measure.sh" "$ROOT/bench/sanitize.sh" \
  "$STAGE/"

echo "==> hand-written CUDA ($NVCC -O3 -arch=$CHIP)"
"$NVCC" -O3 -arch="$CHIP" -cubin -o "$STAGE/hand.cubin" \
  "$ROOT/bench/kernels/hand.cu"

echo "==> bundles"
while read -r name rest; do
  [[ -z $name || $name == \#* ]] && continue
  file=$(sed -n 's/.*file=\([^ ]*\).*/\1/p' <<<"$rest")
  tile=$(sed -n 's/.*tile=\([^ ]*\).*/\1/p' <<<"$rest")
  flags=$(sed -n 's/.*flags=\([^ ]*\).*/\1/p' <<<"$rest" | tr ',' ' ')
  src=$ROOT/bench/kernels/$file
  # shellcheck disable=SC2086
  threadbind-compile "$src" --chip "$CHIP" --emit bundle $flags \
    -o "$STAGE/$name-threadbind.so"
  # The same kernels as a cubin alone, for cuobjdump -sass (measure.sh).
  # shellcheck disable=SC2086
  threadbind-compile "$src" --chip "$CHIP" --emit cubin $flags \
    -o "$STAGE/cubin/$name-threadbind.cubin"
  threadbind-compile "$src" --chip "$CHIP" --emit bundle --mapper=upstream \
    -o "$STAGE/$name-upstream.so"
  threadbind-compile "$src" --chip "$CHIP" --emit bundle \
    --mapper=upstream-tiled --upstream-tile="${tile:-256}" \
    -o "$STAGE/$name-upstream-tiled.so"
  echo "    $name"
done <"$ROOT/bench/suite.txt"
echo "==> reductions (for sanitize.sh)"
REDUCTIONS=$ROOT/test/Integration/Reductions/reductions.mlir
for variant in "" "-unroll1 --reduction-unroll=1" \
  "-atomic --reduction-cross-block=atomic" \
  "-block-rows --reduction-warp-rows=false"; do
  read -r suffix flags <<<"$variant"
  # shellcheck disable=SC2086
  threadbind-compile "$REDUCTIONS" --chip "$CHIP" --emit bundle $flags \
    -o "$STAGE/reductions/reductions$suffix.so"
done
echo "staged in $STAGE ($(du -sh "$STAGE" | cut -f1))"
