#!/bin/bash
# Transposes and permutations through workgroup memory on a GPU: checks
# against the CPU reference at ragged sizes, racecheck and memcheck, and
# kernel times beside copies of the same bytes. Run from a staged tree
# (scripts/stage-gpu.sh puts it there as scripts/permutations.sh, with
# extra/perm.so and extra/perm-scalar.so, the latter compiled with
# --vector-bytes=0 so that tiles of 1- and 2-byte elements move one element
# a thread an access).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
R=bin/threadbind-run
B=extra/perm.so
S=extra/perm-scalar.so
run() { echo "--- $*"; "$@" 2>&1 | tail -6; echo "rc=${PIPESTATUS[0]}"; }
run $R $B --entry transpose --shape 0=777x1000 --shape 1=1000x777 --check
run $R $B --entry transpose --shape 0=1x1 --shape 1=1x1 --check
run $R $B --entry transpose --shape 0=33x31 --shape 1=31x33 --check
run $R $B --entry transpose_add --shape 0=45x777 --shape 1=777x45 --shape 2=777x45 --check
for bundle in $B $S; do
  run $R $bundle --entry nchw_to_nhwc --shape 0=8x64x56x56 --shape 1=8x56x56x64 --check
  run $R $bundle --entry nchw_to_nhwc --shape 0=2x33x5x40 --shape 1=2x5x40x33 --check
  run $R $bundle --entry nchw_to_nhwc --shape 0=3x130x7x5 --shape 1=3x7x5x130 --check
  run $R $bundle --entry nhwc_to_nchw --shape 0=3x7x5x130 --shape 1=3x130x7x5 --check
  run $R $bundle --entry nhwc_to_nchw --shape 0=2x56x56x64 --shape 1=2x64x56x56 --check
  run $R $bundle --entry permute3 --shape 0=33x40x70 --shape 1=40x70x33 --check
done
run $R $B --entry nchw_to_nhwc_f32 --shape 0=3x130x7x5 --shape 1=3x7x5x130 --check
run $R $B --entry nhwc_to_nchw_f32 --shape 0=3x7x5x130 --shape 1=3x130x7x5 --check
for tool in racecheck memcheck; do
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry transpose --shape 0=100x67 --shape 1=67x100 --check
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry nchw_to_nhwc --shape 0=2x33x5x40 --shape 1=2x5x40x33 --check
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry nchw_to_nhwc --shape 0=3x130x7x5 --shape 1=3x7x5x130 --check
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry nhwc_to_nchw --shape 0=3x7x5x130 --shape 1=3x130x7x5 --check
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry permute3 --shape 0=33x40x70 --shape 1=40x70x33 --check
done
# Timings: each permutation beside a copy of the same shape and bytes.
bench() { run "$@" --bench 50; }
bench $R $B --entry transpose --shape 0=8192x8192 --shape 1=8192x8192
bench $R $B --entry transpose --shape 0=8191x8191 --shape 1=8191x8191
for shape in 32x256x56x56:32x56x56x256 64x128x112x112:64x112x112x128; do
  nchw=${shape%%:*} nhwc=${shape##*:}
  bench $R $B --entry copy4 --shape 0=$nchw --shape 1=$nchw
  bench $R $B --entry nchw_to_nhwc --shape 0=$nchw --shape 1=$nhwc
  bench $R $S --entry nchw_to_nhwc --shape 0=$nchw --shape 1=$nhwc
  bench $R $B --entry nhwc_to_nchw --shape 0=$nhwc --shape 1=$nchw
  bench $R $S --entry nhwc_to_nchw --shape 0=$nhwc --shape 1=$nchw
done
# f32 at the same bytes as the first i8 shape, and a larger one.
for shape in 32x64x56x56:32x56x56x64 64x32x112x112:64x112x112x32; do
  nchw=${shape%%:*} nhwc=${shape##*:}
  bench $R $B --entry copy4_f32 --shape 0=$nchw --shape 1=$nchw
  bench $R $B --entry nchw_to_nhwc_f32 --shape 0=$nchw --shape 1=$nhwc
  bench $R $B --entry nhwc_to_nchw_f32 --shape 0=$nhwc --shape 1=$nchw
done
