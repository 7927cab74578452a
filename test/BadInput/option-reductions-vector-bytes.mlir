// Bad option values for reductions: vector-bytes=12 to
// threadbind-map-reductions (threadbind-compile refuses it before reading
// the input; see option-vector-bytes-3.mlir). The error is at the reduction.
// RUN: threadbind-opt %s -threadbind-map-reductions=vector-bytes=12 -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-opt %s -threadbind-map-reductions=vector-bytes=12 -o %t.out.mlir 2>&1 | FileCheck %s

func.func @sum(%x: memref<?xf64>, %out: memref<1xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  // CHECK: .mlir:[[@LINE+2]]:8: error: 'scf.parallel' op cannot be mapped with vector-bytes = 12: it must be 4, 8, 16, or 0 for scalar loads
  // expected-error @below {{'scf.parallel' op cannot be mapped with vector-bytes = 12: it must be 4, 8, 16, or 0 for scalar loads}}
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%l: f64, %r: f64):
      %t = arith.addf %l, %r : f64
      scf.reduce.return %t : f64
    }
  }
  memref.store %s, %out[%c0] : memref<1xf64>
  return
}
