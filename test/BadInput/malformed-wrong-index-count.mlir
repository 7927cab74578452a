// Malformed input: a store with two indices into a 1-D memref (Inputs/wrong-index-count.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/wrong-index-count.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/wrong-index-count.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: wrong-index-count.mlir:6:5: error: 'memref.store' op store index operand count not equal to memref rank
