// Bad option values: --widen-unroll=100000. Widening clones the loop body
// once a vector element for each of the unrolled vectors, so before issue
// 13 this kept cloning until killed (it had not finished after minutes).
// Unroll is now 1 to 16, as for reductions.
// RUN: %refused threadbind-compile %s --widen-unroll=100000 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu -threadbind-widen-accesses=unroll=17 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=OPT
// 16 is the most, and widens.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-widen-accesses="unroll=16 nested-loops" -o /dev/null

// COMPILE: error: unroll must be at most 16, not 100000
// OPT: error: unroll must be at most 16, not 17

func.func @add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %b[%i, %j] : memref<?x?xf32>
  }
  return
}
