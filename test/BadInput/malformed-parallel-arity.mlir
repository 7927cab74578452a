// Malformed input: a 2-D scf.parallel given one upper bound (Inputs/parallel-arity.mlir,
// which cannot carry RUN lines of its own). Both tools say where, exit
// non-zero, write no output and leave the input as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %refused threadbind-opt %S/Inputs/parallel-arity.mlir -threadbind-map-to-gpu -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %refused threadbind-compile %S/Inputs/parallel-arity.mlir -o %t/out.ptx 2>&1 | FileCheck %s

// CHECK: parallel-arity.mlir:5:41: error: custom op 'scf.parallel' expected 2 operands
