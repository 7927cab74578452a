#!/usr/bin/env bash
# The second call of 2026-11-29's stream work, on the GPU machine, from a
# stage of scripts/stage-gpu.sh (this file copied to
# <stage>/call-stream/final.sh), with the runtime's trimmed launch path:
# the PolyBench suite (gpu-check.sh --polybench, its log cut to the lines
# report.py reads), the launch-bound stencils again in three more
# processes, and jacobi-2d's kernels at its standard size under Nsight
# Compute.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE" || exit 1
OUT=${OUT:-$STAGE/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
bash scripts/gpu-check.sh --polybench 2>&1 |
  grep -E "^(RESULT|CHECK|MISMATCH|ERROR|DEVICE|DATE|GPU|DONE|LABEL)" \
    >"$OUT/polybench.log"
grep "^LABEL" "$OUT/polybench.log" | grep -vc " ok$"
for round in 1 2 3; do
  bin/polybench-bench polybench/polybench.txt --stage polybench --runs 20 \
    --warmup 3 --only jacobi-2d,jacobi-2d-cover,conv3d,fdtd-2d,conv2d \
    >"$OUT/again-$round.log" 2>&1
  echo "round $round exit $?"
done
if command -v ncu >/dev/null; then
  ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__inst_executed.sum,lts__t_bytes.sum,dram__bytes.sum \
    --launch-skip 60 --launch-count 60 bin/polybench-bench polybench/polybench.txt \
    --stage polybench --runs 1 --warmup 0 --only jacobi-2d 2>&1 |
    grep -E "^  [a-z_0-9]+.*\(|gpu__time|launch__|smsp__inst|lts__t_bytes|dram__bytes" \
      >"$OUT/ncu-jacobi.log"
  echo "ncu exit $?"
fi
