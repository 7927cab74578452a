// Bad option values for reductions: --reduction-unroll=17 (1 to 16, or 0 to
// choose). The pass alone errs at the reduction loop; the driver and the
// map-to-gpu pipeline refuse the value up front, as they do a bad
// --vector-bytes, so a program without a reduction does not take it
// either (it used to compile).
// RUN: threadbind-opt %s -threadbind-normalize -threadbind-map-reductions=unroll=17 -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --reduction-unroll=17 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: %refused threadbind-compile %S/../../examples/vector-add.mlir --reduction-unroll=17 -o %t.plain.ptx 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: not threadbind-opt %s -threadbind-map-to-gpu=reduction-unroll=17 -o /dev/null 2>&1 | FileCheck %s --check-prefix=DRIVER
// DRIVER: error: reduction-unroll must be 1 to 16, or 0 to choose, not 17

func.func @max(%x: memref<?xi32>, %out: memref<1xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %low = arith.constant -2147483648 : i32
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
