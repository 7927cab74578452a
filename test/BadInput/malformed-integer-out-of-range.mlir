// Malformed input: a loop bound that does not fit in 64 bits (Inputs/integer-out-of-range.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/integer-out-of-range.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/integer-out-of-range.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: integer-out-of-range.mlir:4:23: error: integer constant out of range for attribute
