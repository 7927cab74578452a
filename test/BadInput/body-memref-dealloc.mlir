// Unsupported op in a loop body: memref.dealloc of a host allocation, one
// per iteration.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @frees(%bufs: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot run on the device: 'memref.dealloc' manages heap memory
    // expected-error @below {{cannot run on the device: 'memref.dealloc' manages heap memory}}
    memref.dealloc %bufs : memref<?xf32>
  }
  return
}
