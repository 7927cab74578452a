// Conflicting attributes: a loop marked threadbind.tail = 3, not one of the
// strategies, under --grid-policy=cover, where the tail check it would
// govern exists. The error is at the loop (now its launch); nothing is
// written.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --grid-policy=cover -o %t.ptx 2>&1 | FileCheck %s

func.func @fill(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // CHECK: .mlir:[[@LINE+2]]:3: error: 'threadbind.tail' must be "split", "pad" or "keep", not 3 : i32
  // expected-error @below {{'threadbind.tail' must be "split", "pad" or "keep", not 3 : i32}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  } {threadbind.tail = 3 : i32}
  return
}
