#!/usr/bin/env bash
# Bundle calls on the caller's stream (threadbind_use_stream), 2026-11-29,
# on the GPU machine, from a stage of scripts/stage-gpu.sh (this file copied
# to <stage>/call-stream/run.sh): the examples and corpus called both ways
# and PolyBench with ThreadBind timed on the twin's stream
# (gpu-check.sh), memcheck over calls on the stream, the launch-bound
# stencils again in three more processes, and the kernels of jacobi-2d at
# its standard size under Nsight Compute.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE" || exit 1
OUT=${OUT:-$STAGE/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
bash scripts/gpu-check.sh --corpus --polybench >"$OUT/check.log" 2>&1
echo "gpu-check exit $?"
grep -c "^LABEL .* ok" "$OUT/check.log"
grep "^LABEL .* FAILED" "$OUT/check.log"
for example in examples/*.so; do
  name=$(basename "$example" .so)
  spec=$(head -1 "examples/$name.spec")
  # shellcheck disable=SC2086
  if compute-sanitizer --tool memcheck --error-exitcode 9 bin/threadbind-run \
      "$example" $spec --check --on-stream >"$OUT/memcheck-$name.log" 2>&1; then
    echo "MEMCHECK on-stream $name ok"
  else
    echo "MEMCHECK on-stream $name FAILED"
  fi
done
for round in 1 2 3; do
  bin/polybench-bench polybench/polybench.txt --stage polybench --runs 20 \
    --warmup 3 --only jacobi-2d,jacobi-2d-cover,jacobi-2d-gridstride,conv3d,fdtd-2d \
    >"$OUT/again-$round.log" 2>&1
  echo "round $round exit $?"
done
if command -v ncu >/dev/null; then
  ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__inst_executed.sum,lts__t_bytes.sum,dram__bytes.sum \
    --launch-skip 60 --launch-count 60 bin/polybench-bench polybench/polybench.txt \
    --stage polybench --runs 1 --warmup 0 --only jacobi-2d >"$OUT/ncu-jacobi.log" 2>&1
  echo "ncu exit $?"
fi
