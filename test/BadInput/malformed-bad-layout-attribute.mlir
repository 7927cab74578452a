// Malformed input: a strided layout with more strides than the memref has dimensions (Inputs/bad-layout-attribute.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t && cp %S/Inputs/bad-layout-attribute.mlir %t/in.mlir
// RUN: not threadbind-opt %t/in.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: not ls %t/out.mlir
// RUN: not threadbind-compile %t/in.mlir -o %t/out.ptx 2>&1 | FileCheck %s
// RUN: not ls %t/out.ptx %t/out.manifest.json
// RUN: cmp %S/Inputs/bad-layout-attribute.mlir %t/in.mlir

// CHECK: in.mlir:1:27: error: expected the number of strides to match the rank
