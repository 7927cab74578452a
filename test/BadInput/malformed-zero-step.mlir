// Malformed input: an scf.parallel whose constant step is 0 (Inputs/zero-step.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/zero-step.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/zero-step.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: zero-step.mlir:4:3: error: 'scf.parallel' op constant step operand must be positive
