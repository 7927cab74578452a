// Malformed input: an op of a dialect that does not exist in the loop body (Inputs/unregistered-op.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/unregistered-op.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/unregistered-op.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: unregistered-op.mlir:6:10: error: Dialect `mystery' not found for custom op 'mystery.square'
