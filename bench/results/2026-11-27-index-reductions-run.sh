#!/bin/bash
# Index reductions on the GPU against the CPU reference: counts, largest
# and smallest positions, an f32 sum beside them (stats), and a count a
# row (negatives); ragged sizes, memcheck and racecheck.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
R=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "--- $*"; "$@" 2>&1 | grep -E "kernel|check:|ERROR SUMMARY|RACECHECK SUMMARY|gpu arg1"; echo "rc=${PIPESTATUS[0]}"; }
for n in 1 33 1000003; do
  run $R idx/index.so --entry stats --input 0=idx/x$n.npy --check --rtol 1e-4 --atol 1e-2 --print
done
run $R idx/index.so --entry stats --size 0 --check
run $R idx/index.so --entry stats --size 300000007 --check --rtol 1e-4 --atol 50
for shape in 0x7 5x0 3x31 1000x777 7x100003; do
  run $R idx/index.so --entry negatives --size ${shape/x/,} --check
done
run compute-sanitizer --tool memcheck --error-exitcode 9 $R idx/index.so --entry stats --input 0=idx/x1000003.npy --check --rtol 1e-4 --atol 1e-2
run compute-sanitizer --tool racecheck --error-exitcode 9 $R idx/index.so --entry stats --input 0=idx/x1000003.npy --check --rtol 1e-4 --atol 1e-2
run compute-sanitizer --tool memcheck --error-exitcode 9 $R idx/index.so --entry negatives --size 33,257 --check
