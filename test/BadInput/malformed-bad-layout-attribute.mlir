// Malformed input: a strided layout with more strides than the memref has dimensions (Inputs/bad-layout-attribute.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/bad-layout-attribute.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/bad-layout-attribute.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: bad-layout-attribute.mlir:1:27: error: expected the number of strides to match the rank
