// Functions without bodies: an external llvm.func declaration alone, in the
// llvm dialect rather than func. Nothing to map: an error, no output.
// RUN: cp %s %t.mlir
// RUN: threadbind-opt %t.mlir -threadbind-map-to-gpu | FileCheck %s --check-prefix=OPT
// RUN: not threadbind-compile %t.mlir -o %t.ptx 2>&1 | FileCheck %s
// RUN: not ls %t.ptx %t.manifest.json
// RUN: cmp %s %t.mlir

// OPT: llvm.func @ext_sqrt(f32) -> f32
// CHECK: .mlir:0:0: error: nothing to map

llvm.func @ext_sqrt(f32) -> f32
