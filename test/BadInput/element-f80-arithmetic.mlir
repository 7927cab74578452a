// Unsupported element type: x87 f80 in the loop body. Before issue 13,
// f80 arithmetic (arith.addf) aborted the NVPTX backend as f128's did.
// Here the value is converted to f32 after the load, which computes on f80
// too: an error at the conversion.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @extended(%a: memref<?xf80>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf80>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'arith.truncf' computes on 'f80'
    // expected-error @below {{'arith.truncf' computes on 'f80'}}
    %y = arith.truncf %x : f80 to f32
    memref.store %y, %b[%i] : memref<?xf32>
  }
  return
}
