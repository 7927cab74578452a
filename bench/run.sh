#!/usr/bin/env bash
#===- bench/run.sh - The benchmark suite in one command ------------------===#
#
# On a machine with the toolchain and a GPU: build, stage, measure, report.
#   bench/run.sh            -> bench/results/<date>-<gpu>.md and PNG plots
# In three steps, across two machines:
#   scripts/stage-gpu.sh DIR                    (toolchain machine)
#   DIR/scripts/gpu-check.sh --bench > log.txt  (GPU machine, driver only)
#   /usr/bin/python3 bench/report.py log.txt    (back on the first)
#
#===----------------------------------------------------------------------===#

set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STAGE=$ROOT/.device/check
bash "$ROOT/scripts/stage-gpu.sh" "$STAGE"
LOG=$(mktemp)
bash "$STAGE/scripts/gpu-check.sh" --bench >"$LOG" || true
/usr/bin/python3 "$ROOT/bench/report.py" "$LOG" --out-dir "$ROOT/bench/results"
