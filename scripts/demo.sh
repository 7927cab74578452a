#!/usr/bin/env bash
#===- scripts/demo.sh - Set up, build and run the examples ---------------===#
#
# For every example in examples/: maps its parallel loops onto the GPU, shows
# the launch configuration that came out, and proves the mapping keeps the
# example's meaning by running the original and the mapped IR on the CPU
# (mapped IR through the gpu.launch emulation) and comparing their output.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

OUT_DIR=${THREADBIND_DEMO_OUT:-$THREADBIND_BUILD_DIR/demo}
mkdir -p "$OUT_DIR"
LOWER_TO_CPU=(-canonicalize -lower-affine -convert-scf-to-cf
  -expand-strided-metadata -convert-to-llvm -reconcile-unrealized-casts)
MAP=(-threadbind-map-to-gpu=remarks -mlir-print-op-on-diagnostic=false)

run_cpu() {
  mlir-runner -e main -entry-point-result=void \
    -shared-libs="$LLVM_PREFIX/lib/libmlir_runner_utils.so,$LLVM_PREFIX/lib/libmlir_c_runner_utils.so" |
    sed -e 's/base@ = 0x[0-9a-f]*//'
}

failures=0
for example in "$THREADBIND_ROOT"/examples/*.mlir; do
  name=$(basename "$example" .mlir)
  echo
  echo "==> $name"
  threadbind-opt "$example" "${MAP[@]}" >"$OUT_DIR/$name.mapped.mlir" \
    2>"$OUT_DIR/$name.remarks.txt"
  sed -n 's/.*remark: /    /p' "$OUT_DIR/$name.remarks.txt"
  threadbind-opt "$example" "${LOWER_TO_CPU[@]}" | run_cpu >"$OUT_DIR/$name.ref.txt"
  threadbind-opt "$OUT_DIR/$name.mapped.mlir" -threadbind-test-emulate-gpu-launch \
    "${LOWER_TO_CPU[@]}" | run_cpu >"$OUT_DIR/$name.mapped.txt"
  if cmp -s "$OUT_DIR/$name.ref.txt" "$OUT_DIR/$name.mapped.txt"; then
    echo "    CPU emulation of the mapped IR matches the original" \
      "($(wc -c <"$OUT_DIR/$name.ref.txt") bytes of output)"
  else
    echo "    MISMATCH: see $OUT_DIR/$name.ref.txt and $name.mapped.txt"
    failures=$((failures + 1))
  fi
done
echo
echo "outputs in $OUT_DIR"
exit $((failures != 0))
