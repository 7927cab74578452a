#!/bin/bash
# Transposes and permutations through workgroup memory on a GPU: checks
# against the CPU reference at ragged sizes, racecheck and memcheck, and
# kernel times. Run from a staged tree (scripts/stage-gpu.sh) holding
# extra/perm.so, compiled from bench/permutations/permutations.mlir.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
R=bin/threadbind-run
B=extra/perm.so
run() { echo "--- $*"; "$@" 2>&1 | tail -6; echo "rc=${PIPESTATUS[0]}"; }
run $R $B --entry transpose --shape 0=777x1000 --shape 1=1000x777 --check
run $R $B --entry transpose --shape 0=1x1 --shape 1=1x1 --check
run $R $B --entry transpose --shape 0=33x31 --shape 1=31x33 --check
run $R $B --entry transpose_add --shape 0=45x777 --shape 1=777x45 --shape 2=777x45 --check
run $R $B --entry nchw_to_nhwc --shape 0=8x64x56x56 --shape 1=8x56x56x64 --check
run $R $B --entry nchw_to_nhwc --shape 0=2x33x5x40 --shape 1=2x5x40x33 --check
run $R $B --entry permute3 --shape 0=33x40x70 --shape 1=40x70x33 --check
for tool in racecheck memcheck; do
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry transpose --shape 0=100x67 --shape 1=67x100 --check
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry nchw_to_nhwc --shape 0=2x33x5x40 --shape 1=2x5x40x33 --check
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry permute3 --shape 0=33x40x70 --shape 1=40x70x33 --check
done
run $R $B --entry transpose --shape 0=8192x8192 --shape 1=8192x8192 --bench 50
run $R $B --entry nchw_to_nhwc --shape 0=32x256x56x56 --shape 1=32x56x56x256 --bench 50
