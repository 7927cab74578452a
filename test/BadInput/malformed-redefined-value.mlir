// Malformed input: an SSA name defined twice (Inputs/redefined-value.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/redefined-value.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/redefined-value.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: redefined-value.mlir:3:3: error: redefinition of SSA value '%c0'
