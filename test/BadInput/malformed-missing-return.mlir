// Malformed input: a function whose body has no terminator (Inputs/missing-return.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/missing-return.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/missing-return.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: missing-return.mlir:5:3: error: block with no terminator
