// Unsupported op in a loop body: a func.call to a function the module
// defines. It is still host code (ThreadBind does not clone callees into
// kernels), so the call is an error at the call, not a missing symbol in
// the PTX.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @square(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}

func.func @calls_defined(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'func.call' calls a host function
    // expected-error @below {{cannot run on the device: 'func.call' calls a host function}}
    %y = func.call @square(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
