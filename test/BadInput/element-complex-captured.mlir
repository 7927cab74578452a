// Unsupported element type as a kernel argument: a complex<f32> scalar
// defined outside the loop and stored in it. A kernel cannot take a
// complex value as an argument (memrefs of complex work; see
// element-complex.mlir).
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @broadcast(%a: memref<?xcomplex<f32>>, %c: complex<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot run on the device: it uses a value of type 'complex<f32>' defined outside the loop, which a kernel cannot take as an argument
    // expected-error @below {{it uses a value of type 'complex<f32>' defined outside the loop}}
    memref.store %c, %a[%i] : memref<?xcomplex<f32>>
  }
  return
}
