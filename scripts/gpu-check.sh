#!/usr/bin/env bash
#===- scripts/gpu-check.sh - Run staged bundles on a GPU -----------------===#
#
# The one run command for GPU work. Run from a directory made by
# scripts/stage-gpu.sh, on a machine with an NVIDIA GPU and its driver (no
# LLVM, MLIR or toolkit needed):
#   - every example, checked against its CPU reference, called as usual and
#     on the caller's stream (--on-stream);
#   - with --bench, the benchmark suite (bench/suite.txt): threadbind-bench
#     checks and times every kernel, size and system (ThreadBind, upstream
#     tiled and default, the hand CUDA twin, a device copy) on the same
#     buffers; with SASS_DIR set, the SASS of every cubin is written there;
#   - with --sanitize, compute-sanitizer memcheck over the examples, and
#     memcheck and racecheck over every kernel of the suite and every entry
#     of the reductions at ragged sizes (JOBS at once, default 8), and over
#     every staged program whose kernels use shared memory or barriers
#     (scripts/sanitize-shared.py: the corpus, PolyBench, transposes and
#     layout changes, at ragged sizes);
#   - with --tails, every way of handling the bounds check (grid-stride,
#     cover split, cover keep, cover over padding) at the sizes around a
#     block, k*T-1, k*T, k*T+1, T-1, 1 and 0, and two odd large ones, each
#     checked against the CPU reference under compute-sanitizer memcheck
#     (plainly where it is missing);
#   - with --python, the Python package's GPU tests (NumPy, CuPy and
#     PyTorch arrays, launch_ptx) on the programs stage-gpu.sh compiled, and
#     examples/python/compare_torch.py;
#   - with --fuzz, the fuzz cases stage-gpu.sh kept as bundles
#     (THREADBIND_STAGE_FUZZ=N), each checked against its CPU reference
#     under compute-sanitizer memcheck (plainly where it is missing);
#   - with --corpus, every program of test/Integration/Programs at the size
#     its BUNDLE lines give, checked against its CPU reference (also
#     --on-stream), and the
#     one-outer-loop softmax (bench/softmax) timed against torch.softmax at
#     4096x4096 in the same run;
#   - with --polybench, the PolyBench/GPU-style suite
#     (bench/polybench/polybench.txt): polybench-bench checks ThreadBind,
#     the hand CUDA twins and cuBLAS against the CPU reference at small odd
#     sizes, ThreadBind against the twins at the standard sizes, and times
#     each whole benchmark (RESULT lines for bench/polybench/report.py);
#   - with --reductions, every combiner and type of the reduction mapping
#     (test/Integration/Reductions/reductions.mlir) at 0, 1, 31, 32, 33,
#     2^20+7 and 2^28 elements, with the second-kernel and the atomic
#     cross-block combine, each checked against the CPU reference, and at
#     33 and 2^20+7 under memcheck; and the kernels of multidim.mlir and
#     epilogue.mlir (reductions over several dimensions, results that feed
#     pure ops) at ragged sizes under memcheck.
# Every check prints "LABEL <label> ok|FAILED"; timings are RESULT lines
# (threadbind-bench's feed bench/report.py). Exits non-zero if any check
# fails.
#
#===----------------------------------------------------------------------===#

set -uo pipefail
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUN=$STAGE/bin/threadbind-run
BENCH=0 SANITIZE=0 TAILS=0 REDUCTIONS=0 PYTHON=0 FUZZ=0 CORPUS=0
POLYBENCH=0
for arg in "$@"; do
  case $arg in
  --bench) BENCH=1 ;;
  --sanitize) SANITIZE=1 ;;
  --tails) TAILS=1 ;;
  --reductions) REDUCTIONS=1 ;;
  --python) PYTHON=1 ;;
  --fuzz) FUZZ=1 ;;
  --corpus) CORPUS=1 ;;
  --polybench) POLYBENCH=1 ;;
  *)
    echo "usage: gpu-check.sh [--bench] [--sanitize] [--tails] [--reductions]" \
      "[--python] [--fuzz] [--corpus] [--polybench]" >&2
    exit 2
    ;;
  esac
done

failures=0
tagged() { # tagged LABEL COMMAND...: runs COMMAND, its result tagged
  local label=$1
  shift
  if "$@"; then
    echo "LABEL $label ok"
  else
    echo "LABEL $label FAILED"
    failures=$((failures + 1))
  fi
}
run() { # run LABEL ARGS...: one threadbind-run
  echo "--- $1: threadbind-run ${*:2}"
  tagged "$1" "$RUN" "${@:2}"
}
# compute-sanitizer memcheck where it is installed; empty otherwise.
MEMCHECK=()
command -v compute-sanitizer >/dev/null &&
  MEMCHECK=(compute-sanitizer --tool memcheck --error-exitcode 9)
checked() { # checked LABEL ARGS...: one threadbind-run under MEMCHECK
  echo "--- $1"
  tagged "$1" "${MEMCHECK[@]}" "$RUN" "${@:2}"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
  2>/dev/null | sed 's/^/GPU /'

examples() { # examples HOW PREFIX: HOW PREFIX-<name> BUNDLE ARGS --check,
  # once for every `// threadbind-run:` line of every example
  local bundle name spec
  for bundle in "$STAGE"/examples/*.so; do
    name=$(basename "$bundle" .so)
    while read -r spec; do
      [ -n "$spec" ] || continue
      # shellcheck disable=SC2086
      "$1" "$2-$name" "$bundle" $spec --check
    done <"$STAGE/examples/$name.spec"
  done
}
examples run example
# Again on the caller's stream (threadbind_use_stream): calls return with
# their work queued, and the runner waits for the device before it reads.
on_stream() { run "$1" "${@:2}" --on-stream; }
examples on_stream example-on-stream

# The C++ launcher example: every kernel of examples/launcher/kernels.mlir
# launched through the header --emit header writes, on a stream, checked
# against the CPU.
if [[ -x $STAGE/bin/threadbind-launcher-example ]]; then
  echo "--- launcher-example"
  tagged launcher-example "${MEMCHECK[@]}" \
    "$STAGE/bin/threadbind-launcher-example"
fi

# The sanitizer runs over the suite and the reductions: sizes that are
# multiples of nothing (a warp and a bit, four blocks and a bit, 100003;
# 2-D shapes ragged along both dimensions), each run checked against the
# CPU reference, under memcheck and racecheck, JOBS at a time.
sanitize_suite() {
  local jobs_file sizes_1d="37 1029 100003" sizes_2d="3,37 33,1029 257,259"
  jobs_file=$(mktemp)
  add() { # add LABEL ARGS...: one threadbind-run, under each tool
    for tool in memcheck racecheck; do
      printf '%s\t%s\t%s\n' "$tool" "$1" "${*:2}" >>"$jobs_file"
    done
  }
  while read -r name rest; do
    [[ -z $name || $name == \#* ]] && continue
    local entry first scalars sizes
    entry=$(sed -n 's/.*entry=\([^ ]*\).*/\1/p' <<<"$rest")
    first=$(sed -n 's/.*sizes=\([^; ]*\).*/\1/p' <<<"$rest")
    scalars=$(grep -o 'scalar=[0-9]*:[^ ]*' <<<"$rest" |
      sed 's/scalar=\([0-9]*\):/--scalar \1=/' | tr '\n' ' ')
    if [[ $first == *x* ]]; then sizes=$sizes_2d; else sizes=$sizes_1d; fi
    for n in $sizes; do
      local shape=""
      # A transpose writes a C x R output for an R x C input.
      [[ $entry == transpose ]] && shape="--shape 1=${n#*,}x${n%,*}"
      add "$name-$n" "$STAGE/bench/$name-threadbind.so" --entry "$entry" \
        --size "$n" $shape $scalars --check
    done
  done <"$STAGE/bench/suite.txt"
  # Every entry of the default reductions at three sizes; the variants
  # (atomic cross-block combine, no unrolling, a block a row) where they
  # differ from it.
  for bundle in "$STAGE"/reductions/reductions*.so; do
    local variant
    variant=$(basename "$bundle" .so)
    for entry in $("$RUN" "$bundle" --list | sed 's/(.*//'); do
      if [[ $entry == row* ]]; then
        sizes="3,37 33,1029 65,513"
      elif [[ $variant == reductions-block-rows ]]; then
        continue
      elif [[ $variant == reductions ]]; then
        sizes="33 1029 100003"
      else
        sizes="1029 100003"
      fi
      for n in $sizes; do
        add "$variant-$entry-$n" "$bundle" --entry "$entry" --size "$n" --check
      done
    done
  done
  one() { # one "TOOL<tab>LABEL<tab>ARGS": the verdict, and the output if bad
    local tool label args out
    IFS=$'\t' read -r tool label args <<<"$1"
    # shellcheck disable=SC2086
    if out=$(compute-sanitizer --tool "$tool" --error-exitcode 9 \
      --print-limit 5 "$RUN" $args 2>&1); then
      echo "LABEL $tool-$label ok"
    else
      echo "LABEL $tool-$label FAILED"
      echo "$out" | tail -20 | sed 's/^/    /'
    fi
  }
  export -f one
  export RUN
  local results
  results=$(mktemp)
  xargs -P "${JOBS:-8}" -d '\n' -n 1 bash -c 'one "$1"' _ <"$jobs_file" |
    tee "$results"
  local runs failed
  runs=$(grep -c '^LABEL ' "$results")
  failed=$(grep -c '^LABEL .* FAILED$' "$results")
  echo "sanitize: $runs runs, $failed failed"
  failures=$((failures + failed + (runs == 0)))
  rm -f "$jobs_file" "$results"
}

if ((SANITIZE)); then
  if ((${#MEMCHECK[@]})); then
    compute-sanitizer --version | tail -1 | sed 's/^/SANITIZER /'
    examples checked memcheck
    sanitize_suite
    # Everything else staged that has barriers or shared memory.
    if out=$(python3 "$STAGE/scripts/sanitize-shared.py" --jobs "${JOBS:-8}"); then
      echo "$out" | tail -1
    else
      echo "$out" | grep -v " ok$"
      failures=$((failures + 1))
    fi
  else
    echo "compute-sanitizer not found: memcheck skipped"
  fi
fi

if ((CORPUS)); then
  # The reference sums in loop order, the GPU in a tree: sums of thousands
  # of random f32 values with cancellation differ in the 4th digit, so the
  # check takes 1e-3. Kernels that need well-conditioned data (lu without
  # pivoting, cholesky, triangular solves, durbin, floyd-warshall's
  # non-negative weights) get it from .npy files scripts/corpus-inputs.py
  # writes here, for the "--input I=@KIND" of their BUNDLE lines.
  echo "corpus programs against their CPU references"
  while read -r line; do
    eval "set -- $line"
    if [[ $line == *=@* ]]; then
      # shellcheck disable=SC2046
      set -- "$1" $(python3 "$STAGE/scripts/corpus-inputs.py" \
        "$STAGE/corpus" "${1%.so}" "${@:2}")
    fi
    run "corpus-${1%.so}" "$STAGE/corpus/$1" "${@:2}" --check \
      --rtol 1e-3 --atol 1e-3
    run "corpus-on-stream-${1%.so}" "$STAGE/corpus/$1" "${@:2}" --check \
      --rtol 1e-3 --atol 1e-3 --on-stream
  done <"$STAGE/corpus/commands.txt"
  # The same GPU, one after the other: ThreadBind's block-a-row softmax
  # and torch.softmax.
  run softmax-bench "$STAGE/corpus/softmax-bench.so" --entry softmax \
    --size 4096,4096 --check --bench 50
  run softmax-bench-again "$STAGE/corpus/softmax-bench.so" --entry softmax \
    --size 4096,4096 --bench 50
  tagged softmax-torch python3 "$STAGE/corpus/compare_torch_softmax.py"
  tagged softmax-torch-again python3 "$STAGE/corpus/compare_torch_softmax.py"
fi

if ((FUZZ)); then
  if [[ -f $STAGE/fuzz/commands.txt ]]; then
    echo "fuzz bundles under: ${MEMCHECK[*]:-no sanitizer}"
    while read -r line; do
      eval "set -- $line"
      checked "fuzz-${1%.so}" "$STAGE/fuzz/$1" "${@:2}"
    done <"$STAGE/fuzz/commands.txt"
  else
    echo "no fuzz bundles staged (THREADBIND_STAGE_FUZZ=N stage-gpu.sh)"
  fi
fi

if ((TAILS)); then
  T=$STAGE/tails
  echo "tails under: ${MEMCHECK[*]:-no sanitizer}"
  # 1-D: T = 256.
  for variant in grid-stride split keep pad; do
    for n in 767 768 769 255 1 0 100003 1048583; do
      checked "tail-saxpy-$variant-$n" "$T/saxpy-$variant.so" --entry saxpy \
        --size "$n" --check
    done
  done
  # 2-D: T = 32 along x (the columns).
  for variant in grid-stride split; do
    for shape in 3,95 3,96 3,97 5,31 1,1 0,7 7,0 767,769; do
      checked "tail-add2d-$variant-$shape" "$T/add2d-$variant.so" \
        --entry add_2d_rows --size "$shape" --check
    done
  done
fi

if ((REDUCTIONS)); then
  R=$STAGE/reductions/reductions.so
  # The CPU reference folds in order, in the element type: an f32 sum of
  # 2^20 random values in [-1, 1) is off by about 0.02 there, and by a few
  # units at 2^28, while the GPU's tree sums are closer. The tolerances
  # admit that and still catch a lost block or an init value counted twice
  # (1.5 in sum_f32) at the sizes where it could hide.
  tolerance() { # tolerance ENTRY N: --rtol/--atol for the check
    case $1 in
    sum_f32 | dot_f32 | sum_and_absmax_f32)
      if (($2 > 100000000)); then echo "--rtol 1e-4 --atol 20"
      elif (($2 > 1000000)); then echo "--rtol 1e-4 --atol 0.1"
      else echo ""; fi ;;
    sum_f64)
      if (($2 > 100000000)); then echo "--rtol 1e-9 --atol 1e-6"
      else echo "--rtol 1e-12 --atol 1e-9"; fi ;;
    *) echo "" ;;
    esac
  }
  entries=(sum_f32 sum_f64 prod_f64 maxnum_f32 minnum_f64 maximum_f64
    minimum_f32 sum_i32 sum_i64 prod_i64 and_i32 or_i64 xor_i32 maxsi_i64
    minsi_i32 maxui_i32 minui_i64 dot_f32 sum_and_absmax_f32 sum_f16
    maxnum_f16 absmax_region_f16 absmax_region_f32 or_region_i32 sum_i8
    maxsi_i8 minsi_i16 maxui_i16 absmax_region_i16 maxnum_bf16)
  # The entries with a hardware atomic, run again with atomics.
  atomic_entries=(sum_f32 sum_f64 sum_i32 sum_i64 and_i32 or_i64 xor_i32
    maxsi_i64 minsi_i32 maxui_i32 minui_i64 dot_f32 sum_and_absmax_f32)
  sizes() { # sizes ENTRY: the sizes to check it at
    # An in-order f16 sum of 2^28 values is no reference (see the entry).
    if [[ $1 == sum_f16 ]]; then echo 0 1 31 32 33 1048583
    else echo 0 1 31 32 33 1048583 268435456; fi
  }
  for entry in "${entries[@]}"; do
    for n in $(sizes "$entry"); do
      # shellcheck disable=SC2046
      run "reduce-$entry-$n" "$R" --entry "$entry" --size "$n" \
        $(tolerance "$entry" "$n") --check
    done
  done
  for entry in "${atomic_entries[@]}"; do
    for n in $(sizes "$entry"); do
      # shellcheck disable=SC2046
      run "reduce-atomic-$entry-$n" "$STAGE/reductions/reductions-atomic.so" \
        --entry "$entry" --size "$n" $(tolerance "$entry" "$n") --check
    done
  done
  # Row reductions, one block a row, at shapes around a block and 8192^2.
  for entry in row_sums_f32 row_max_i32 row_absmax_region_f32; do
    # Row sums of up to 8192 values: the in-order f32 reference drifts by
    # about 1e-4 where a row's sum is near zero.
    tol=""
    [[ $entry == row_sums_f32 ]] && tol="--rtol 1e-4 --atol 1e-3"
    for shape in 0,5 3,0 1,1 5,31 33,257 1000,1000 8192,8192 1048576,32 \
      65536,512 65536,513; do
      # shellcheck disable=SC2086
      run "reduce-$entry-$shape" "$R" --entry "$entry" --size "$shape" \
        $tol --check
    done
    run "reduce-$entry-8192x8192-bench" "$R" --entry "$entry" \
      --size 8192,8192 --bench 30
  done
  # Short rows: one-warp blocks (the default) against a block a row.
  for shape in 1048576,32 65536,512; do
    for variant in reductions reductions-block-rows; do
      run "reduce-row_sums_f32-$shape-$variant-bench" \
        "$STAGE/reductions/$variant.so" --entry row_sums_f32 --size "$shape" \
        --bench 30
    done
  done
  # CUB's DeviceReduce::Sum and ThreadBind's f32 sum, in turn, twice.
  if [[ -x $STAGE/cub/cub_sum ]]; then
    for round in 1 2; do
      echo "--- cub round $round"
      "$STAGE/cub/cub_sum"
      for n in 65536 268435456; do
        "$RUN" "$R" --entry sum_f32 --size "$n" --bench 30 | grep '^RESULT'
      done
    done
  fi
  # Hand-written CUDA dot product, maximum and row sums, then ThreadBind's.
  if [[ -x $STAGE/cub/hand_reductions ]]; then
    echo "--- hand-written reductions"
    "$STAGE/cub/hand_reductions"
    run "reduce-maxnum_f32-268435456-bench" "$R" --entry maxnum_f32 \
      --size 268435456 --check --bench 30
  fi
  # The same at 2^28 without unrolling and with atomics, timed beside the
  # default.
  for entry in sum_f32 dot_f32; do
    for variant in reductions reductions-unroll1 reductions-atomic; do
      run "reduce-$entry-268435456-$variant" "$STAGE/reductions/$variant.so" \
        --entry "$entry" --size 268435456 --rtol 1e-4 --atol 20 --check \
        --bench 20
    done
  done
  # Reductions over several dimensions, and results that feed pure ops,
  # under memcheck; in-order f32 sums on the CPU drift from the GPU's trees.
  M=$STAGE/reductions/multidim.so
  for n in 1,1 5,31 7,33 1000,1000 4096,4099 3,1000003; do
    checked "reduce-multidim-sum_2d-$n" "$M" --entry sum_2d --size "$n" \
      --rtol 1e-4 --atol 2 --check
    checked "reduce-multidim-max_2d_strided-$n" "$M" --entry max_2d_strided \
      --size "$n" --check
    checked "reduce-multidim-sum_min_3d-$n" "$M" --entry sum_min_3d \
      --size "$n" --check
    checked "reduce-multidim-row_sums_2d-$n" "$M" --entry row_sums_2d \
      --size "$n" --rtol 1e-4 --atol 1e-3 --check
  done
  run "reduce-multidim-sum_2d-8192,8192-bench" "$M" --entry sum_2d \
    --size 8192,8192 --rtol 1e-4 --atol 20 --check --bench 20
  run "reduce-multidim-row_sums_2d-8192,2731-bench" "$M" --entry row_sums_2d \
    --size 8192,2731 --rtol 1e-4 --atol 1e-3 --check --bench 20
  E=$STAGE/reductions/epilogue.so
  for n in 1 33 100003 4194307; do
    checked "reduce-epilogue-affine_sum-$n" "$E" --entry affine_sum \
      --size "$n" --rtol 1e-4 --atol 0.1 --check
    checked "reduce-epilogue-norm-$n" "$E" --entry norm --size "$n" --check
    checked "reduce-epilogue-mean_and_range-$n" "$E" --entry mean_and_range \
      --size "$n" --rtol 1e-4 --atol 1e-3 --check
  done
  for shape in 1,1 5,31 1000,1000 4096,4099 65536,512; do
    checked "reduce-epilogue-row_stats-$shape" "$E" --entry row_stats \
      --size "$shape" --rtol 1e-4 --atol 1e-3 --check
    checked "reduce-epilogue-row_centered-$shape" "$E" --entry row_centered \
      --size "$shape" --rtol 1e-4 --atol 1e-2 --check
  done
  run "reduce-epilogue-row_centered-8192,8192-bench" "$E" \
    --entry row_centered --size 8192,8192 --rtol 1e-4 --atol 1e-2 --check \
    --bench 20
  run "reduce-epilogue-affine_sum-268435456-bench" "$E" --entry affine_sum \
    --size 268435456 --rtol 1e-4 --atol 20 --check --bench 20
  # Row reductions written as loops reach the row mapping: checked, then
  # timed beside the scf.parallel form at 8192^2 and 65536x512.
  L=$STAGE/reductions/loop-rows.so
  for entry in rows_parallel rows_iter_args rows_linalg; do
    for shape in 0,5 1,1 5,31 33,257 1000,1000 65536,513; do
      checked "reduce-loop-$entry-$shape" "$L" --entry "$entry" \
        --size "$shape" --rtol 1e-4 --atol 1e-3 --check
    done
  done
  for shape in 1x1 33x257 1000x1000 4099x515; do
    rows=${shape%x*} cols=${shape#*x}
    checked "reduce-loop-matvec-$shape" "$L" --entry matvec \
      --shape "0=${rows}x${cols}" --shape "1=${cols}" --shape "2=${rows}" \
      --rtol 1e-4 --atol 1e-3 --check
  done
  checked "reduce-loop-batch_matvec-3x33x257" "$L" --entry batch_matvec \
    --shape 0=3x33x257 --shape 1=3x257 --shape 2=3x33 --rtol 1e-4 \
    --atol 1e-3 --check
  for round in 1 2; do
    for shape in 8192,8192 65536,512; do
      for entry in rows_parallel rows_iter_args rows_linalg; do
        run "reduce-loop-$entry-$shape-bench-$round" "$L" --entry "$entry" \
          --size "$shape" --rtol 1e-4 --atol 1e-2 --check --bench 30
      done
    done
  done
  run "reduce-loop-matvec-8192x8192-bench" "$L" --entry matvec \
    --shape 0=8192x8192 --shape 1=8192 --shape 2=8192 --rtol 1e-4 \
    --atol 1e-2 --check --bench 30
  run "reduce-loop-batch_matvec-16x512x512-bench" "$L" --entry batch_matvec \
    --shape 0=16x512x512 --shape 1=16x512 --shape 2=16x512 --rtol 1e-4 \
    --atol 1e-2 --check --bench 30
  # Rounding to bf16: the chip's conversions against the reference's (and
  # both against the exact rounding the inputs were made with).
  D=$STAGE/reductions
  checked "bf16-rounding" "$D/bf16.so" --entry round_to_bf16 \
    --input 0="$D/x.npy" --input 1="$D/d.npy" --input 2="$D/ex.npy" \
    --input 3="$D/ed.npy" --size 208 --check --print
  # The sequential fallback: a reduction left to one thread beside a
  # mapped loop, and a function with no parallel loop (an in-order sum).
  S=$STAGE/reductions/sequential.so
  for n in 1 1000 100003; do
    checked "sequential-max_abs-$n" "$S" --entry max_abs --size "$n" --check
    checked "sequential-running_sum-$n" "$S" --entry running_sum \
      --size "$n" --rtol 1e-5 --atol 1e-2 --check
  done
  if ((${#MEMCHECK[@]})); then
    for entry in row_sums_f32 row_max_i32 row_absmax_region_f32; do
      for shape in 3,0 5,31 33,257; do
        checked "memcheck-reduce-$entry-$shape" "$R" --entry "$entry" \
          --size "$shape" --check
      done
    done
    for entry in "${entries[@]}"; do
      for n in 33 1048583; do
        # shellcheck disable=SC2046
        checked "memcheck-reduce-$entry-$n" "$R" --entry "$entry" \
          --size "$n" $(tolerance "$entry" "$n") --check
      done
    done
  fi
fi

if ((PYTHON)); then
  P=$STAGE/python
  PYTHON3=${PYTHON3:-python3}
  python_env=(env "LD_LIBRARY_PATH=$STAGE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    "PYTHONPATH=$P${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1)
  "${python_env[@]}" "$PYTHON3" -c 'import pytest' 2>/dev/null ||
    python_env+=("PYTHONPATH=$P:$P/pytest")
  "${python_env[@]}" "$PYTHON3" -c 'import numpy, pytest; print("numpy",
numpy.__version__, "pytest", pytest.__version__)
for name in ("cupy", "torch"):
    try:
        print(name, __import__(name).__version__)
    except ImportError:
        print(name, "missing")'
  echo "--- pytest test_gpu.py"
  tagged "python-gpu-tests" "${python_env[@]}" \
    "THREADBIND_TEST_PROGRAM=$P/programs/kernels" \
    "THREADBIND_TEST_READ_ONLY_PROGRAM=$P/programs/kernels-read-only" \
    "$PYTHON3" -m pytest -v \
    -p no:cacheprovider -rs "$P/tests/test_gpu.py"
  echo "--- compare_torch.py"
  tagged "python-compare-torch" "${python_env[@]}" "$PYTHON3" \
    "$P/compare_torch.py" --program "$P/programs/saxpy"
  echo "--- bench/python: overhead.py, training_step.py"
  tagged "python-overhead" "${python_env[@]}" "$PYTHON3" \
    "$P/bench/overhead.py" --program "$P/programs/ops"
  tagged "python-training-step" "${python_env[@]}" "$PYTHON3" \
    "$P/bench/training_step.py" --program "$P/programs/ops"
fi

if ((BENCH)); then
  B=$STAGE/bench
  echo "DATE $(date -u +%F)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader 2>/dev/null | sed 's/^/GPU /'
  tagged "bench-suite" "$STAGE/bin/threadbind-bench" "$B/suite.txt" \
    --stage "$B" --runs "${RUNS:-30}" --warmup "${WARMUP:-5}" \
    ${ONLY:+--only "$ONLY"}
  if [[ -n ${SASS_DIR:-} ]] && command -v cuobjdump >/dev/null; then
    mkdir -p "$SASS_DIR"
    for cubin in "$B"/cubin/*.cubin "$B/hand.cubin"; do
      cuobjdump -sass "$cubin" >"$SASS_DIR/$(basename "$cubin" .cubin).sass"
    done
  fi
fi

if ((POLYBENCH)); then
  P=$STAGE/polybench
  echo "DATE $(date -u +%F)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader 2>/dev/null | sed 's/^/GPU /'
  # libcublas is the machine's: from its CUDA toolkit where the loader does
  # not know it already.
  if ! ldconfig -p 2>/dev/null | grep -q 'libcublas\.so\.'; then
    for dir in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/lib64; do
      [[ -d $dir ]] && export LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    done
  fi
  tagged "polybench-suite" "$STAGE/bin/polybench-bench" "$P/polybench.txt" \
    --stage "$P" --runs "${RUNS:-10}" --warmup "${WARMUP:-2}" \
    ${ONLY:+--only "$ONLY"}
fi

echo "gpu-check: $failures failure(s)"
exit $((failures != 0))
