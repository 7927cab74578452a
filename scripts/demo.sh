#!/usr/bin/env bash
#===- scripts/demo.sh - Set up, build and run the examples ---------------===#
#
# For every example in examples/:
#   1. bind its parallel loops to the GPU and say how and why;
#   2. prove the binding keeps the meaning: run the original and the bound
#      IR on the CPU (bound IR through the gpu.launch emulation), compare;
#   3. compile it to PTX, assemble that with ptxas (when the CUDA toolkit is
#      there) and show each kernel's registers;
#   4. build the host bundle and run it with threadbind-run: on the GPU,
#      checked against the CPU reference, when a GPU is present; otherwise
#      the CPU reference alone.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

OUT_DIR=${THREADBIND_DEMO_OUT:-$THREADBIND_BUILD_DIR/demo}
mkdir -p "$OUT_DIR"
LOWER_TO_CPU=(-canonicalize -expand-strided-metadata -lower-affine
  -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts)
MAP=(-threadbind-map-to-gpu=remarks -mlir-print-op-on-diagnostic=false)

run_cpu() {
  mlir-runner -e main -entry-point-result=void \
    -shared-libs="$LLVM_PREFIX/lib/libmlir_runner_utils.so,$LLVM_PREFIX/lib/libmlir_c_runner_utils.so" |
    sed -e 's/base@ = 0x[0-9a-f]*//'
}

have_ptxas=0
if threadbind_ptxas=$(command -v ptxas || ls "${CUDA_PATH:-/usr/local/cuda}/bin/ptxas" 2>/dev/null); then
  have_ptxas=1
fi
have_gpu=0
if [[ -e /dev/nvidiactl ]] || command -v nvidia-smi >/dev/null; then
  have_gpu=1
fi
echo "==> ptxas: $( ((have_ptxas)) && echo "$threadbind_ptxas" || echo "not found (PTX is not assembled)")"
echo "==> GPU: $( ((have_gpu)) && echo present || echo "none (bundles run their CPU reference only)")"

failures=0
# The chip threadbind-compile targets without --chip.
chip=$(threadbind-compile --print-default-chip)
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
    echo "    CPU emulation of the bound IR matches the original" \
      "($(wc -c <"$OUT_DIR/$name.ref.txt") bytes of output)"
  else
    echo "    MISMATCH: see $OUT_DIR/$name.ref.txt and $name.mapped.txt"
    failures=$((failures + 1))
  fi

  threadbind-compile "$example" -o "$OUT_DIR/$name.ptx"
  echo "    PTX: $(grep -c '^.visible .entry' "$OUT_DIR/$name.ptx") kernel(s)," \
    "$OUT_DIR/$name.ptx"
  if ((have_ptxas)); then
    threadbind-compile "$example" --emit cubin \
      -o "$OUT_DIR/$name.cubin" --manifest "$OUT_DIR/$name.cubin.json"
    sed -n "s/.*\"registers\": \([0-9]*\).*/    ptxas $chip: \1 registers per thread/p" \
      "$OUT_DIR/$name.cubin.json"
  fi

  threadbind-compile "$example" --emit bundle -o "$OUT_DIR/$name.so" 2>/dev/null
  while read -r spec; do
    [[ -n $spec ]] || continue
    # shellcheck disable=SC2086
    if ((have_gpu)); then
      if threadbind-run "$OUT_DIR/$name.so" $spec --check \
          >"$OUT_DIR/$name.run.txt" 2>&1; then
        grep -E "kernel |check:" "$OUT_DIR/$name.run.txt" | sed 's/^ */    /'
      else
        sed 's/^/    /' "$OUT_DIR/$name.run.txt"
        failures=$((failures + 1))
      fi
    else
      threadbind-run "$OUT_DIR/$name.so" $spec --reference-only \
        >"$OUT_DIR/$name.run.txt"
      echo "    bundle: CPU reference ran ($spec); no GPU to check it on"
    fi
  done < <(sed -n 's|^// threadbind-run: ||p' "$example")
done
echo
echo "outputs in $OUT_DIR"
exit $((failures != 0))
