// Conflicting attributes: threadbind.padded_to on a scalar argument, which
// has no padding to run on. The error is at the function (argument 1).
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --grid-policy=cover -o %t.ptx 2>&1 | FileCheck %s

// CHECK: .mlir:[[@LINE+2]]:1: error: 'func.func' op argument 1: 'threadbind.padded_to' applies to 1-D memrefs with the identity layout, not 'f32'
// expected-error @below {{'func.func' op argument 1: 'threadbind.padded_to' applies to 1-D memrefs with the identity layout, not 'f32'}}
func.func @broadcast(%a: memref<?xf32> {threadbind.padded_to = 256}, %s: f32 {threadbind.padded_to = 256}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %s, %a[%i] : memref<?xf32>
  }
  return
}
