// Bad option values for reductions: --reduction-unroll=17 (1 to 16, or 0 to
// choose). The error is at the reduction loop, and only where there is one.
// RUN: threadbind-opt %s -threadbind-normalize -threadbind-map-reductions=unroll=17 -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --reduction-unroll=17 -o %t.ptx 2>&1 | FileCheck %s

func.func @max(%x: memref<?xi32>, %out: memref<1xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %low = arith.constant -2147483648 : i32
  // CHECK: .mlir:[[@LINE+2]]:8: error: 'scf.parallel' op cannot be mapped with unroll = 17: it must be 1 to 16, or 0 to choose
  // expected-error @below {{'scf.parallel' op cannot be mapped with unroll = 17: it must be 1 to 16, or 0 to choose}}
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%low) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%l: i32, %r: i32):
      %t = arith.maxsi %l, %r : i32
      scf.reduce.return %t : i32
    }
  }
  memref.store %s, %out[%c0] : memref<1xi32>
  return
}
