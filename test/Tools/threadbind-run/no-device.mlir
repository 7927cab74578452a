// Without a GPU the runner says "no CUDA device" and exits with status 3,
// distinct from a failure; --reference-only still works.
// UNSUPPORTED: cuda-device
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %S/Inputs/entries.mlir --emit bundle -o %t/entries.so
// RUN: %python %S/Inputs/expect-exit.py 3 threadbind-run %t/entries.so --entry iota --size 8 --check 2>&1 | FileCheck %s
// RUN: %python %S/Inputs/expect-exit.py 0 threadbind-run %t/entries.so --entry iota --size 8 --reference-only
// CHECK: threadbind-run: no CUDA device
