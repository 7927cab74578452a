// Unsupported element type: a memref of tf32, a type LLVM has no
// counterpart for. Before issue 13 the device lowering failed with
// "failed to legalize operation 'gpu.func'" at the loop.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @tf32_copy(%a: memref<?xtf32>, %b: memref<?xtf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'memref.load' takes a value of type 'memref<?xtf32>', which has no LLVM type
    // expected-error @below {{'memref.load' takes a value of type 'memref<?xtf32>', which has no LLVM type}}
    %x = memref.load %a[%i] : memref<?xtf32>
    memref.store %x, %b[%i] : memref<?xtf32>
  }
  return
}
