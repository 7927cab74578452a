// Unsupported op in a loop body: gpu.barrier between a store and a load,
// which only means something inside a launch written by hand.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @barrier(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot run on the device: 'gpu.barrier' would refer to the launch that the mapping creates
    // expected-error @below {{'gpu.barrier' would refer to the launch that the mapping creates}}
    gpu.barrier
    %x = memref.load %a[%c0] : memref<?xf32>
    memref.store %x, %b[%i] : memref<?xf32>
  }
  return
}
