#!/bin/bash
# i1 reductions (any, all, parity, signed max) and index ones on the GPU
# against the CPU reference; ragged sizes, memcheck, racecheck.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
R=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run() { echo "--- $*"; "$@" 2>&1 | grep -E "check:|ERROR SUMMARY|RACECHECK SUMMARY|gpu arg1"; echo "rc=${PIPESTATUS[0]}"; }
for f in x1 x33 x1000003 all3; do
  run $R idx/index.so --entry flags --input 0=idx/$f.npy --check --print
  run $R idx/index.so --entry stats --input 0=idx/$f.npy --check --rtol 1e-4 --atol 1e-2
done
run $R idx/index.so --entry flags --size 0 --check --print
run $R idx/index.so --entry flags --size 300000007 --check --print
run compute-sanitizer --tool memcheck --error-exitcode 9 $R idx/index.so --entry flags --input 0=idx/x1000003.npy --check
run compute-sanitizer --tool racecheck --error-exitcode 9 $R idx/index.so --entry flags --input 0=idx/x1000003.npy --check
