#!/usr/bin/env bash
#===- scripts/stage-gpu.sh - Build what a GPU machine needs --------------===#
#
# The one stage command for GPU work: compiles everything scripts/gpu-check.sh
# checks, benchmarks and sanitizes into one directory (default .device/check)
# that runs on a machine with only the CUDA driver: the examples, the
# benchmark suite (bench/suite.txt, three mappings a kernel, its hand CUDA
# twins), the tail and reduction variants, CUB and the hand reductions, the
# Python package's programs and, with THREADBIND_STAGE_FUZZ=N, fuzz cases;
# with threadbind-run, threadbind-bench and libThreadBindRuntime.so. Copy it
# there and run `scripts/gpu-check.sh` from it.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

STAGE=${1:-$THREADBIND_ROOT/.device/check}
rm -rf "$STAGE"
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/examples" "$STAGE/scripts"
cp "$THREADBIND_BUILD_DIR/bin/threadbind-run" \
  "$THREADBIND_BUILD_DIR/bin/threadbind-bench" "$STAGE/bin/"
cp "$THREADBIND_BUILD_DIR/lib/libThreadBindRuntime.so" "$STAGE/lib/"
# The C++ launcher example (examples/launcher), where CMake found cuda.h.
if [[ -x $THREADBIND_BUILD_DIR/bin/threadbind-launcher-example ]]; then
  cp "$THREADBIND_BUILD_DIR/bin/threadbind-launcher-example" "$STAGE/bin/"
fi
cp "$THREADBIND_ROOT/scripts/gpu-check.sh" \
  "$THREADBIND_ROOT/scripts/sanitize-shared.py" "$STAGE/scripts/"
CHIP=${CHIP:-$(threadbind-compile --print-default-chip)}
NVCC=${NVCC:-$(command -v nvcc || echo "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc")}

compile() { # compile SOURCE OUTPUT [threadbind-compile options...]
  local src=$1 out=$2
  shift 2
  threadbind-compile "$src" --chip "$CHIP" --emit bundle -o "$out" "$@"
}

echo "==> examples"
for example in "$THREADBIND_ROOT"/examples/*.mlir; do
  name=$(basename "$example" .mlir)
  compile "$example" "$STAGE/examples/$name.so"
  sed -n 's|^// threadbind-run: ||p' "$example" >"$STAGE/examples/$name.spec"
done

echo "==> benchmark suite"
# Every line of bench/suite.txt three ways (ThreadBind, upstream MLIR
# tiled, upstream MLIR default), and the hand-written twins in one cubin.
K=$THREADBIND_ROOT/bench/kernels
mkdir -p "$STAGE/bench/cubin"
cp "$THREADBIND_ROOT/bench/suite.txt" "$STAGE/bench/"
"$NVCC" -O3 -arch="$CHIP" -cubin -o "$STAGE/bench/hand.cubin" \
  "$K/hand.cu"
while read -r name rest; do
  [[ -z $name || $name == \#* ]] && continue
  file=$(sed -n 's/.*file=\([^ ]*\).*/\1/p' <<<"$rest")
  tile=$(sed -n 's/.*tile=\([^ ]*\).*/\1/p' <<<"$rest")
  flags=$(sed -n 's/.*flags=\([^ ]*\).*/\1/p' <<<"$rest" | tr ',' ' ')
  src=$K/$file
  # The cubin inside the bundle is kept too, from the same compilation,
  # for its SASS.
  # shellcheck disable=SC2086
  compile "$src" "$STAGE/bench/$name-threadbind.so" $flags \
    --save-cubin "$STAGE/bench/cubin/$name-threadbind.cubin"
  compile "$src" "$STAGE/bench/$name-upstream.so" --mapper=upstream
  compile "$src" "$STAGE/bench/$name-upstream-tiled.so" \
    --mapper=upstream-tiled --upstream-tile="${tile:-256}"
done <"$THREADBIND_ROOT/bench/suite.txt"

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
# Reductions over several dimensions, and results that feed pure ops: the
# kernels of their CPU-emulation tests, without the host driver (@check,
# @main and what follows), which a bundle cannot hold.
for test in multidim epilogue; do
  sed '/^func.func @check/,$d' \
    "$THREADBIND_ROOT/test/Integration/Reductions/$test.mlir" \
    >"$STAGE/reductions/$test.mlir"
  compile "$STAGE/reductions/$test.mlir" "$STAGE/reductions/$test.so"
  rm "$STAGE/reductions/$test.mlir"
done
# Row reductions written as loops (iter_args, linalg) beside the
# scf.parallel form, and the sequential fallback's one-thread kernels.
compile "$THREADBIND_ROOT/bench/reductions/loop-rows.mlir" \
  "$STAGE/reductions/loop-rows.so"
sed -e '/^func.func @main/,$d' -e '/vector.print/d' \
  "$THREADBIND_ROOT/test/Integration/Sequential/fallback.mlir" \
  >"$STAGE/reductions/sequential.mlir"
compile "$STAGE/reductions/sequential.mlir" "$STAGE/reductions/sequential.so"
rm "$STAGE/reductions/sequential.mlir"
# CUB's sum and hand-written reductions, the references for the reduction
# mapping's speed.
compile "$THREADBIND_ROOT/test/Tools/threadbind-run/bf16-reference.mlir" \
  "$STAGE/reductions/bf16.so"
/usr/bin/python3 "$THREADBIND_ROOT/test/Tools/threadbind-run/Inputs/bf16_cases.py" \
  "$STAGE/reductions" >/dev/null
mkdir -p "$STAGE/cub"
"$NVCC" -O3 -arch="$CHIP" "$THREADBIND_ROOT/bench/reductions/cub_sum.cu" \
  -o "$STAGE/cub/cub_sum"
"$NVCC" -O3 -arch="$CHIP" "$THREADBIND_ROOT/bench/reductions/hand_reductions.cu" \
  -o "$STAGE/cub/hand_reductions"
if [[ -n ${THREADBIND_STAGE_FUZZ:-} ]]; then
  echo "==> fuzz cases (${THREADBIND_STAGE_FUZZ} from seed ${THREADBIND_STAGE_FUZZ_SEED:-1})"
  # Each case is checked on the CPU here; those that make a bundle keep it,
  # with the threadbind-run --check line gpu-check.sh --fuzz runs.
  /usr/bin/python3 "$THREADBIND_ROOT/fuzz/loopnest_fuzz.py" \
    --cases "$THREADBIND_STAGE_FUZZ" --seed "${THREADBIND_STAGE_FUZZ_SEED:-1}" \
    --bundle-dir "$STAGE/fuzz" --out "$STAGE/fuzz-failures" | tail -1
  rm -f "$STAGE"/fuzz/*.mlir "$STAGE"/fuzz/*.ptx "$STAGE"/fuzz/*.cubin
fi
echo "==> corpus"
# The programs of test/Integration/Programs, each with the threadbind-run
# arguments of its "// BUNDLE:" lines (one run a line); the affine forms go
# through upstream's parallelizer first, as their tests do. And the softmax
# benchmark, timed against torch.softmax.
mkdir -p "$STAGE/corpus"
: >"$STAGE/corpus/commands.txt"
for program in "$THREADBIND_ROOT"/test/Integration/Programs/*.mlir; do
  name=$(basename "$program" .mlir)
  grep -q '^// BUNDLE: ' "$program" || continue
  source=$program
  if [[ $name == *-affine ]]; then
    source=$STAGE/corpus/$name.parallel.mlir
    threadbind-opt "$program" -affine-parallelize="parallel-reductions=1" \
      -o "$source"
  fi
  compile "$source" "$STAGE/corpus/$name.so"
  rm -f "$STAGE/corpus/$name.parallel.mlir"
  sed -n "s|^// BUNDLE: |$name.so |p" "$program" >>"$STAGE/corpus/commands.txt"
done
compile "$THREADBIND_ROOT/bench/softmax/softmax.mlir" "$STAGE/corpus/softmax-bench.so"
cp "$THREADBIND_ROOT/bench/softmax/compare_torch_softmax.py" "$STAGE/corpus/"
# Inputs some programs need well-conditioned ("--input I=@KIND") are made
# on the GPU machine, which has NumPy, rather than carried there.
cp "$THREADBIND_ROOT/scripts/corpus-inputs.py" "$STAGE/scripts/"
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
# The same with read-only loads, for test_gpu.py's overlapping arguments.
PYTHONPATH=$THREADBIND_ROOT/python /usr/bin/python3 -c '
import sys, threadbind
threadbind.compile(sys.argv[1], output_dir=sys.argv[2], read_only_loads=True)' \
  "$THREADBIND_ROOT/python/tests/kernels.mlir" \
  "$STAGE/python/programs/kernels-read-only"
/usr/bin/python3 "$THREADBIND_ROOT/examples/python/compare_torch.py" \
  --save "$STAGE/python/programs/saxpy"
# What a call costs from Python, two streams, and a training step with
# ThreadBind ops (bench/python).
mkdir -p "$STAGE/python/bench"
cp "$THREADBIND_ROOT"/bench/python/*.py "$STAGE/python/bench/"
PYTHONPATH=$THREADBIND_ROOT/python /usr/bin/python3 -c '
import sys, threadbind
threadbind.compile(sys.argv[1], output_dir=sys.argv[2])' \
  "$THREADBIND_ROOT/bench/python/ops.mlir" "$STAGE/python/programs/ops"
for package in pytest _pytest pluggy iniconfig packaging py.py; do
  cp -r "/usr/lib/python3/dist-packages/$package" "$STAGE/python/pytest/"
done
echo "==> polybench"
# The PolyBench/GPU-style suite (bench/polybench/polybench.txt): a bundle a
# benchmark, and polybench-bench, the harness with the hand-written CUDA
# twins and cuBLAS's SGEMM linked in (libcublas from the GPU machine's
# toolkit; gpu-check.sh --polybench looks for it there).
PB=$THREADBIND_ROOT/bench/polybench
mkdir -p "$STAGE/polybench"
cp "$PB/polybench.txt" "$STAGE/polybench/"
for src in "$PB"/*.mlir; do
  compile "$src" "$STAGE/polybench/$(basename "$src" .mlir).so"
done
# Variants: a line with flags= gets a bundle of its own, <name>.so.
while read -r name rest; do
  [[ -z $name || $name == \#* || $rest != *flags=* ]] && continue
  file=$(sed -n 's/.*file=\([^ ]*\).*/\1/p' <<<"$rest")
  flags=$(sed -n 's/.*flags=\([^ ]*\).*/\1/p' <<<"$rest" | tr ',' ' ')
  # shellcheck disable=SC2086 # the flags are words
  compile "$PB/$file" "$STAGE/polybench/$name.so" $flags
done <"$PB/polybench.txt"
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
"$NVCC" -O3 -arch="$CHIP" -I "$THREADBIND_ROOT/include" \
  "$PB/polybench-bench.cu" "$PB/hand.cu" -L "$THREADBIND_BUILD_DIR/lib" \
  -lThreadBindHostData -lThreadBindRuntime -lcublas -ldl \
  -Xlinker -rpath='$ORIGIN/../lib' -o "$STAGE/bin/polybench-bench"
echo "==> permutations"
# Staged transposes and layout changes, with copies of the same bytes
# (bench/permutations/run.sh); the -scalar bundle moves one element a
# thread an access (vector-bytes=0), for the packed tiles' comparison.
mkdir -p "$STAGE/extra"
compile "$THREADBIND_ROOT/bench/permutations/permutations.mlir" \
  "$STAGE/extra/perm.so"
compile "$THREADBIND_ROOT/bench/permutations/permutations.mlir" \
  "$STAGE/extra/perm-scalar.so" --vector-bytes=0
cp "$THREADBIND_ROOT/bench/permutations/run.sh" "$STAGE/scripts/permutations.sh"
echo "==> triton"
# ThreadBind's side of bench/triton/compare_triton.py.
mkdir -p "$STAGE/triton"
compile "$THREADBIND_ROOT/bench/triton/kernels.mlir" "$STAGE/triton/kernels.so"
cp "$THREADBIND_ROOT/bench/triton/compare_triton.py" "$STAGE/triton/"
echo "staged in $STAGE ($(du -sh "$STAGE" | cut -f1))"
