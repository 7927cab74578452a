// Bad option values: a block shape of four dimensions, and one with a zero
// in it, through both tools.
// RUN: %refused threadbind-compile %s --block-shape=8,4,2,2 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: %refused threadbind-compile %s --block-shape=32,0 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu=block-shape=8,4,2,2 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu=block-shape=32,0 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=ZERO

// FOUR: error: threadbind-map-loops-to-threads: block-shape has more than three dimensions
// ZERO: error: threadbind-map-loops-to-threads: block-shape[1] = 0 is outside [1, 1024]

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
