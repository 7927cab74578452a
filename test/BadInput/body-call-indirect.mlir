// Unsupported op in a loop body: func.call_indirect through a function
// value the caller passes in. (Through a func.constant, canonicalization
// would make it a plain func.call first.)
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @calls_indirect(%a: memref<?xf32>, %n: index, %fn: (f32) -> f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'func.call_indirect' calls a host function
    // expected-error @below {{cannot run on the device: 'func.call_indirect' calls a host function}}
    %y = func.call_indirect %fn(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
