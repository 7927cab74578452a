// Malformed input: a memref layout naming an attribute alias that is never defined (Inputs/bad-attribute.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/bad-attribute.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/bad-attribute.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: bad-attribute.mlir:1:52: error: undefined symbol alias id 'nowhere'
