#!/bin/bash
# Column reductions split over a block's rows of threads, on a GPU: checks
# against the CPU reference at ragged and full sizes, racecheck and
# memcheck, and the time of a 4096x4096 column sum. Run from a staged tree
# (scripts/stage-gpu.sh) holding extra/colsplit.so, the kernels of
# test/Transforms/map-reductions-column-split.mlir:
#   sed -e '/^func.func @fill(/,$d' -e '/^\/\/ /d' \
#     test/Transforms/map-reductions-column-split.mlir > colsplit.mlir
#   threadbind-compile colsplit.mlir --emit bundle -o STAGE/extra/colsplit.so
# Sums of a thousand or more random terms are added in another order than
# the CPU's, so the large sizes are compared with an absolute tolerance.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
R=bin/threadbind-run
B=extra/colsplit.so
run() { echo "--- $*"; "$@" 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}"; }
for s in 1x1 33x31 1000x777 4096x4096; do
  m=${s%x*} n=${s#*x}
  run $R $B --entry column_sums --shape 0="$s" --shape 1="$n" --check --atol 1e-3
  run $R $B --entry bicg_s --shape 0="$s" --shape 1="$m" --shape 2="$n" --check --atol 1e-3
  run $R $B --entry sum_and_peak --shape 0="$s" --shape 1="$n" --shape 2="$n" \
    --shape 3="$n" --check --atol 1e-3
done
for tool in racecheck memcheck; do
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry column_sums \
    --shape 0=100x77 --shape 1=77 --check
  run compute-sanitizer --tool $tool --error-exitcode 9 $R $B --entry sum_and_peak \
    --shape 0=65x40 --shape 1=40 --shape 2=40 --shape 3=40 --check
done
run $R $B --entry column_sums --shape 0=4096x4096 --shape 1=4096 --bench 50
