// Functions without bodies: an external llvm.func declaration alone, in the
// llvm dialect rather than func. Nothing to map: an error, no output.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=OPT
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

// OPT: llvm.func @ext_sqrt(f32) -> f32
// CHECK: .mlir:0:0: error: nothing to map

llvm.func @ext_sqrt(f32) -> f32
