// Malformed input: an f64 stored into a memref of f32 (Inputs/store-type-mismatch.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t && cp %S/Inputs/store-type-mismatch.mlir %t/in.mlir
// RUN: not threadbind-opt %t/in.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: not ls %t/out.mlir
// RUN: not threadbind-compile %t/in.mlir -o %t/out.ptx 2>&1 | FileCheck %s
// RUN: not ls %t/out.ptx %t/out.manifest.json
// RUN: cmp %S/Inputs/store-type-mismatch.mlir %t/in.mlir

// CHECK: in.mlir:6:18: error: use of value '%v' expects different type than prior uses: 'f32' vs 'f64'
