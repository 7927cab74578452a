// A parallel loop inside async.execute, in a bundle: bundles link the CUDA
// runtime and libm, not MLIR's async runtime. Before issue 22 the host
// lowering failed at 0:0; now the async op is named, nothing is written.
// The PTX alone still compiles.
// RUN: threadbind-compile %s -o %t.ptx
// RUN: %refused threadbind-compile %s --emit bundle -o %t.so 2>&1 | FileCheck %s

func.func @async_loop(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %f = arith.constant 1.0 : f32
  // CHECK: .mlir:[[@LINE+1]]:8: error: 'async.execute' op cannot run in a bundle, which does not link MLIR's async runtime
  %t = async.execute {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %f, %a[%i] : memref<?xf32>
    }
    async.yield
  }
  async.await %t : !async.token
  return
}
