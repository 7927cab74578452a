// Conflicting options: --dim-order naming dimension 2 of a 2-D loop. The
// error is at the loop it does not fit.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=dim-order=2 -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --dim-order=2 -o %t.ptx 2>&1 | FileCheck %s

func.func @add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: .mlir:[[@LINE+2]]:3: error: 'scf.parallel' op dim-order 2 is not a distinct dimension of this 2-D loop
  // expected-error @below {{'scf.parallel' op dim-order 2 is not a distinct dimension of this 2-D loop}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %b[%i, %j] : memref<?x?xf32>
  }
  return
}
