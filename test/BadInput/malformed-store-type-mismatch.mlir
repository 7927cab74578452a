// Malformed input: an f64 stored into a memref of f32 (Inputs/store-type-mismatch.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/store-type-mismatch.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/store-type-mismatch.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: store-type-mismatch.mlir:6:18: error: use of value '%v' expects different type than prior uses: 'f32' vs 'f64'
