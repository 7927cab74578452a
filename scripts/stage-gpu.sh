#!/usr/bin/env bash
#===- scripts/stage-gpu.sh - Build what a GPU machine needs --------------===#
#
# Compiles the examples and the mapping benchmark kernels into bundles and
# copies them, with threadbind-run and libThreadBindRuntime.so, into one
# directory (default .device/check) that runs on a machine with only the CUDA
# driver: copy it there and run `scripts/gpu-check.sh` from it.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

STAGE=${1:-$THREADBIND_ROOT/.device/check}
rm -rf "$STAGE"
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/examples" "$STAGE/mapping" \
  "$STAGE/scripts"
cp "$THREADBIND_BUILD_DIR/bin/threadbind-run" "$STAGE/bin/"
cp "$THREADBIND_BUILD_DIR/lib/libThreadBindRuntime.so" "$STAGE/lib/"
cp "$THREADBIND_ROOT/scripts/gpu-check.sh" "$STAGE/scripts/"

compile() { # compile SOURCE OUTPUT [threadbind-compile options...]
  local src=$1 out=$2
  shift 2
  threadbind-compile "$src" --emit bundle -o "$out" "$@"
}

echo "==> examples"
for example in "$THREADBIND_ROOT"/examples/*.mlir; do
  name=$(basename "$example" .mlir)
  compile "$example" "$STAGE/examples/$name.so"
  sed -n 's|^// threadbind-run: ||p' "$example" >"$STAGE/examples/$name.spec"
done

echo "==> mapping benchmark"
K=$THREADBIND_ROOT/bench/kernels
compile "$K/vector-add.mlir" "$STAGE/mapping/vadd-threadbind.so"
compile "$K/vector-add.mlir" "$STAGE/mapping/vadd-threadbind-cover.so" \
  --grid-policy=cover
compile "$K/vector-add.mlir" "$STAGE/mapping/vadd-upstream.so" \
  --mapper=upstream
compile "$K/vector-add.mlir" "$STAGE/mapping/vadd-upstream-tiled.so" \
  --mapper=upstream-tiled --upstream-tile=256
compile "$K/add-2d.mlir" "$STAGE/mapping/add2d-threadbind.so"
# The loop's outer dimension forced onto threadIdx.x: what a mapping that
# ignores the accesses does to the row-major loop.
compile "$K/add-2d.mlir" "$STAGE/mapping/add2d-forced-outer.so" --dim-order=0

echo "==> tail handling"
mkdir -p "$STAGE/tails"
compile "$K/saxpy.mlir" "$STAGE/tails/saxpy-grid-stride.so"
compile "$K/saxpy.mlir" "$STAGE/tails/saxpy-split.so" --grid-policy=cover
compile "$K/saxpy.mlir" "$STAGE/tails/saxpy-keep.so" --grid-policy=cover \
  --tail=keep
compile "$K/saxpy-padded.mlir" "$STAGE/tails/saxpy-pad.so" \
  --grid-policy=cover --tail=pad
compile "$K/add-2d.mlir" "$STAGE/tails/add2d-split.so" --grid-policy=cover
compile "$K/add-2d.mlir" "$STAGE/tails/add2d-grid-stride.so"

echo "==> reductions"
mkdir -p "$STAGE/reductions"
compile "$THREADBIND_ROOT/test/Integration/Reductions/reductions.mlir" \
  "$STAGE/reductions/reductions.so"
compile "$THREADBIND_ROOT/test/Integration/Reductions/reductions.mlir" \
  "$STAGE/reductions/reductions-unroll1.so" --reduction-unroll=1
compile "$THREADBIND_ROOT/test/Integration/Reductions/reductions.mlir" \
  "$STAGE/reductions/reductions-atomic.so" --reduction-cross-block=atomic
compile "$THREADBIND_ROOT/test/Integration/Reductions/reductions.mlir" \
  "$STAGE/reductions/reductions-block-rows.so" --reduction-warp-rows=false
# CUB's sum, the reference for the reduction mapping's speed.
NVCC=${NVCC:-$(command -v nvcc || echo "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc")}
if [[ -x $NVCC ]]; then
  mkdir -p "$STAGE/cub"
  chip=$(threadbind-compile --print-default-chip)
  "$NVCC" -O3 -arch="$chip" "$THREADBIND_ROOT/bench/reductions/cub_sum.cu" \
    -o "$STAGE/cub/cub_sum"
  "$NVCC" -O3 -arch="$chip" "$THREADBIND_ROOT/bench/reductions/hand_reductions.cu" \
    -o "$STAGE/cub/hand_reductions"
else
  echo "    no nvcc: CUB comparison not staged"
fi
if [[ -n ${THREADBIND_STAGE_FUZZ:-} ]]; then
  echo "==> fuzz cases (${THREADBIND_STAGE_FUZZ} from seed ${THREADBIND_STAGE_FUZZ_SEED:-1})"
  # Each case is checked on the CPU here; those that make a bundle keep it,
  # with the threadbind-run --check line gpu-check.sh --fuzz runs.
  /usr/bin/python3 "$THREADBIND_ROOT/fuzz/loopnest_fuzz.py" \
    --cases "$THREADBIND_STAGE_FUZZ" --seed "${THREADBIND_STAGE_FUZZ_SEED:-1}" \
    --bundle-dir "$STAGE/fuzz" --out "$STAGE/fuzz-failures" | tail -1
  rm -f "$STAGE"/fuzz/*.mlir "$STAGE"/fuzz/*.ptx "$STAGE"/fuzz/*.cubin
fi
echo "staged in $STAGE ($(du -sh "$STAGE" | cut -f1))"

echo "==> python"
# The package, its tests and the example, with programs compiled here
# (threadbind.compile(..., output_dir=...)) for a machine without the
# compiler; Debian's pytest goes along for a Python that lacks it.
mkdir -p "$STAGE/python/programs" "$STAGE/python/pytest"
cp -r "$THREADBIND_ROOT/python/threadbind" "$THREADBIND_ROOT/python/tests" \
  "$THREADBIND_ROOT/examples/python/compare_torch.py" "$STAGE/python/"
rm -rf "$STAGE"/python/*/__pycache__
PYTHONPATH=$THREADBIND_ROOT/python /usr/bin/python3 -c '
import sys, threadbind
threadbind.compile(sys.argv[1], output_dir=sys.argv[2])' \
  "$THREADBIND_ROOT/python/tests/kernels.mlir" "$STAGE/python/programs/kernels"
/usr/bin/python3 "$THREADBIND_ROOT/examples/python/compare_torch.py" \
  --save "$STAGE/python/programs/saxpy"
for package in pytest _pytest pluggy iniconfig packaging py.py; do
  cp -r "/usr/lib/python3/dist-packages/$package" "$STAGE/python/pytest/"
done

