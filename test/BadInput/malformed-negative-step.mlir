// Malformed input: an scf.parallel counting down with step -1 (Inputs/negative-step.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/negative-step.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/negative-step.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: negative-step.mlir:5:3: error: 'scf.parallel' op constant step operand must be positive
