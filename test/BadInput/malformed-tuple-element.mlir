// Malformed input: a memref of tuples, which is no memref element type (Inputs/tuple-element.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/tuple-element.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/tuple-element.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: tuple-element.mlir:1:31: error: invalid memref element type
