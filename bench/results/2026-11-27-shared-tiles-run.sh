#!/usr/bin/env bash
# The GPU run of 2026-11-27 (session 13) for the shared tiles, from the
# staged directory (scripts/stage-gpu.sh, plus the shared/ bundles this
# script's CPU half builds). CPU half, on the development machine:
#   bash bench/results/2026-11-27-shared-tiles-run.sh stage
# GPU half, in .device/check:
#   bash scripts/shared-tiles-run.sh
# 1. The examples (matmul.mlir checked against the CPU at a shared and a
#    per-output size) and the PolyBench products: gemm (512, 2048, ragged
#    2001x1999x2005, 1024), 2mm, 3mm, the triangles (syrk, syr2k,
#    covariance, correlation), the 2048 products with shared-tiles off,
#    cuBLAS beside the gemms.
# 2. memcheck and racecheck on shared-tile kernels at small and ragged
#    sizes, compiled with --max-blocks=8 so every size takes the shared
#    tiles: examples/matmul.mlir, three kernels of
#    test/Transforms/map-loops-shared-tiles.mlir (PolyBench's gemm with its
#    scalars; B read transposed, its tile k innermost and padded; an i32
#    product with A read transposed) and two triangles of
#    map-loops-register-tiles-triangular.mlir (an f32 lower triangle, an
#    f64 covariance's upper one, correlation's shape with its diagonal
#    stored beside the triangle); the default bundle at a size where the
#    H100/H200 take the shared tiles.
# 3. bench/triton/compare_triton.py: ThreadBind's matmul (2048^3) against
#    Triton's and torch.mm, with the transpose and the 2-D add.
set -uo pipefail

if [[ ${1:-} == stage ]]; then
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  STAGE=$ROOT/.device/check
  mkdir -p "$STAGE/shared"
  extract() { # extract TEST OUTPUT FUNCTION...: the functions, alone
    python3 - "$@" <<'PY'
import sys
text = open(sys.argv[1]).read()
out = []
for name in sys.argv[3:]:
    start = text.index("\nfunc.func @%s(" % name) + 1
    end = text.index("\n}\n", start) + 3
    out.append(text[start:end])
open(sys.argv[2], "w").write("\n".join(out))
PY
  }
  extract "$ROOT/test/Transforms/map-loops-shared-tiles.mlir" \
    "$STAGE/shared/kernels.mlir" gemm abt atb
  extract "$ROOT/test/Transforms/map-loops-register-tiles-triangular.mlir" \
    "$STAGE/shared/triangles.mlir" lower covariance with_diagonal
  for src in "$ROOT/examples/matmul.mlir" "$STAGE/shared/kernels.mlir" \
    "$STAGE/shared/triangles.mlir"; do
    name=$(basename "$src" .mlir)
    "$ROOT/build/bin/threadbind-compile" "$src" --chip sm_90 --emit bundle \
      --max-blocks=8 -o "$STAGE/shared/$name-forced.so"
  done
  cp "${BASH_SOURCE[0]}" "$STAGE/scripts/shared-tiles-run.sh"
  exit 0
fi

STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
RUN=$STAGE/bin/threadbind-run
export LD_LIBRARY_PATH=$STAGE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "DATE $(date -u +%F)"

echo "=== 1. examples and PolyBench products"
ONLY=gemm,gemm-1024,gemm-2048,gemm-2048-registers,gemm-ragged,2mm,2mm-registers,3mm,syrk,syr2k,covariance,correlation \
  RUNS=10 bash scripts/gpu-check.sh --polybench

echo "=== 2. sanitizers on the shared tiles"
jobs=$(mktemp)
for tool in memcheck racecheck; do
  for mkn in 1x1x1 31x16x33 33x29x31 65x8x257 300x37x277 1000x19x777; do
    IFS=x read -r m k n <<<"$mkn"
    echo "$tool matmul-$mkn shared/matmul-forced.so --entry matmul --shape 0=${m}x$k --shape 1=${k}x$n --shape 2=${m}x$n"
    echo "$tool gemm-$mkn shared/kernels-forced.so --entry gemm --scalar 0=1.5 --scalar 1=1.2 --shape 2=${m}x$n --shape 3=${m}x$k --shape 4=${k}x$n"
    echo "$tool abt-$mkn shared/kernels-forced.so --entry abt --shape 0=${m}x$k --shape 1=${n}x$k --shape 2=${m}x$n"
    echo "$tool atb-$mkn shared/kernels-forced.so --entry atb --shape 0=${k}x$m --shape 1=${k}x$n --shape 2=${m}x$n"
    echo "$tool lower-$mkn shared/triangles-forced.so --entry lower --shape 0=${m}x$k --shape 1=${m}x$m"
    echo "$tool covariance-$mkn shared/triangles-forced.so --entry covariance --shape 0=${k}x$n --shape 1=${n}x$n"
    echo "$tool with_diagonal-$mkn shared/triangles-forced.so --entry with_diagonal --shape 0=${k}x$n --shape 1=${n}x$n"
  done
  echo "$tool matmul-default-1100x515x2000 examples/matmul.so --entry matmul --shape 0=1100x515 --shape 1=515x2000 --shape 2=1100x2000"
done >"$jobs"
one() {
  local tool label args out
  read -r tool label args <<<"$1"
  # shellcheck disable=SC2086
  if out=$(compute-sanitizer --tool "$tool" --error-exitcode 9 \
    --print-limit 5 "$RUN" $args --check 2>&1); then
    echo "LABEL $tool-$label ok"
  else
    echo "LABEL $tool-$label FAILED"
    echo "$out" | tail -20 | sed 's/^/    /'
  fi
}
export -f one
export RUN
xargs -P 12 -d '\n' -n 1 bash -c 'one "$1"' _ <"$jobs" | sort
rm -f "$jobs"

echo "=== 3. Triton"
python3 triton/compare_triton.py --bundle triton/kernels.so --runs 30 \
  --python "$STAGE/../../python"
