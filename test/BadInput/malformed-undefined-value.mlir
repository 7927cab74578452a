// Malformed input: a load indexed by a value that is never defined (Inputs/undefined-value.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/undefined-value.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/undefined-value.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: undefined-value.mlir:5:25: error: use of undeclared SSA value name
