// Non-identity layout that is not strided: memref<8xf32, affine_map<(d0)
// -> (d0 floordiv 2)>>, two elements to a cell. No memref descriptor can
// address it. Before issue 13 the device lowering failed with an error
// without a location ("conversion to strided form failed") and another at
// the loop about 'gpu.func'; now the error is at the first op that touches it.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

#pairs = affine_map<(d0) -> (d0 floordiv 2)>

func.func @pairs(%a: memref<8xf32, #pairs>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot run on the device: 'memref.store' takes a value of type 'memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>', whose layout is not strided, so a kernel cannot address it (normalize-memrefs rewrites such layouts)
    // expected-error @below {{'memref.store' takes a value of type 'memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>', whose layout is not strided}}
    memref.store %f, %a[%i] : memref<8xf32, #pairs>
  }
  return
}
