// Unsupported op in a loop body: async.execute, a host task per
// iteration. Before issue 13 it reached the LLVM translation of the
// kernel and failed there.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @async_body(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'async.execute' needs the async host runtime; the parallel loop around it is what ThreadBind binds to the GPU
    // expected-error @below {{'async.execute' needs the async host runtime}}
    %t = async.execute {
      memref.store %f, %a[%i] : memref<?xf32>
      async.yield
    }
  }
  return
}
