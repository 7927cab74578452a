#!/usr/bin/env bash
#===- scripts/gpu-check.sh - Run staged bundles on a GPU -----------------===#
#
# Run from a directory made by scripts/stage-gpu.sh, on a machine with an
# NVIDIA GPU and its driver (no LLVM, MLIR or toolkit needed):
#   - every example, checked against its CPU reference;
#   - with --bench, the mapping benchmark: a 2^28 f32 vector add under
#     ThreadBind (grid-stride and cover), upstream's default mapping and
#     upstream's tiled-256 recipe, and an 8192x8192 2-D add in both loop
#     orders and with the outer dimension forced onto threadIdx.x;
#   - with --sanitize, compute-sanitizer memcheck over the examples.
# Prints RESULT lines for bench/mapping/summarise.py; exits non-zero if any
# check fails.
#
#===----------------------------------------------------------------------===#

set -uo pipefail
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUN=$STAGE/bin/threadbind-run
BENCH=0 SANITIZE=0
for arg in "$@"; do
  case $arg in
  --bench) BENCH=1 ;;
  --sanitize) SANITIZE=1 ;;
  *) echo "usage: gpu-check.sh [--bench] [--sanitize]" >&2; exit 2 ;;
  esac
done

failures=0
run() { # run LABEL ARGS...: one threadbind-run, its result tagged
  local label=$1
  shift
  echo "--- $label: threadbind-run $*"
  if "$RUN" "$@"; then
    echo "LABEL $label ok"
  else
    echo "LABEL $label FAILED"
    failures=$((failures + 1))
  fi
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader \
  2>/dev/null | sed 's/^/GPU /'

for bundle in "$STAGE"/examples/*.so; do
  name=$(basename "$bundle" .so)
  while read -r spec; do
    [ -n "$spec" ] || continue
    # shellcheck disable=SC2086
    run "example-$name" "$bundle" $spec --check
  done <"$STAGE/examples/$name.spec"
done

if ((SANITIZE)); then
  if command -v compute-sanitizer >/dev/null; then
    for bundle in "$STAGE"/examples/*.so; do
      name=$(basename "$bundle" .so)
      while read -r spec; do
        [ -n "$spec" ] || continue
        echo "--- memcheck $name"
        # shellcheck disable=SC2086
        if compute-sanitizer --tool memcheck --error-exitcode 9 \
            "$RUN" "$bundle" $spec --check; then
          echo "LABEL memcheck-$name ok"
        else
          echo "LABEL memcheck-$name FAILED"
          failures=$((failures + 1))
        fi
      done <"$STAGE/examples/$name.spec"
    done
  else
    echo "compute-sanitizer not found: memcheck skipped"
  fi
fi

if ((BENCH)); then
  M=$STAGE/mapping
  N=$((1 << 28))
  for variant in threadbind threadbind-cover upstream-tiled upstream; do
    runs=30
    [ "$variant" = upstream ] && runs=5 # about 20 GB/s: slow on purpose
    run "vadd-$variant" "$M/vadd-$variant.so" --entry vector_add --size $N \
      --check --bench $runs
  done
  run "add2d-rows" "$M/add2d-threadbind.so" --entry add_2d_rows \
    --size 8192,8192 --check --bench 30
  run "add2d-columns-outer" "$M/add2d-threadbind.so" \
    --entry add_2d_columns_outer --size 8192,8192 --check --bench 30
  run "add2d-rows-forced-outer" "$M/add2d-forced-outer.so" \
    --entry add_2d_rows --size 8192,8192 --check --bench 30
fi

echo "gpu-check: $failures failure(s)"
exit $((failures != 0))
