#!/usr/bin/env bash
#===- bench/measure.sh - Run the benchmark suite on a GPU ----------------===#
#
# Run from a directory made by bench/stage.sh, on a machine with an NVIDIA
# GPU and its driver: times every kernel, size and system of suite.txt with
# threadbind-bench and writes the log (RESULT lines) to the file given, or
# stdout. bench/report.py turns the log into tables and plots. With
# SASS_DIR set, the SASS of every ThreadBind cubin and of the hand-written
# twins (cuobjdump -sass) is written there too, for bench/loop-census.py.
#
#===----------------------------------------------------------------------===#

set -uo pipefail
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOG=${1:-/dev/stdout}
{
  echo "DATE $(date -u +%F)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv,noheader 2>/dev/null | sed 's/^/GPU /'
  "$STAGE/bin/threadbind-bench" "$STAGE/suite.txt" --stage "$STAGE" \
    --runs "${RUNS:-30}" --warmup "${WARMUP:-5}" ${ONLY:+--only "$ONLY"}
} 2>&1 | tee "$LOG"
if [[ -n ${SASS_DIR:-} ]] && command -v cuobjdump >/dev/null; then
  mkdir -p "$SASS_DIR"
  for cubin in "$STAGE"/cubin/*.cubin "$STAGE/hand.cubin"; do
    cuobjdump -sass "$cubin" >"$SASS_DIR/$(basename "$cubin" .cubin).sass"
  done
fi
