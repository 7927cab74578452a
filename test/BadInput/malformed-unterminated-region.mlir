// Malformed input: a loop body whose closing brace is missing (Inputs/unterminated-region.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/unterminated-region.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/unterminated-region.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: unterminated-region.mlir:7:3: error: Dialect `' not found for custom op 'return'
