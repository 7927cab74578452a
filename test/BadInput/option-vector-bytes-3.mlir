// Bad option values: --vector-bytes=3, no vector width, to threadbind-compile
// and to the widening pass (threadbind-map-reductions has its own check;
// see option-reductions-vector-bytes.mlir).
// RUN: %refused threadbind-compile %s --vector-bytes=3 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu -threadbind-widen-accesses=vector-bytes=3 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=OPT

// COMPILE: threadbind-compile: error: vector-bytes must be 0, 4, 8 or 16, not 3
// OPT: error: vector-bytes must be 4, 8 or 16, not 3

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
