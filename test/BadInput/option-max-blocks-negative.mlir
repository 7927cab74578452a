// Bad option values: a negative --max-blocks, through both tools.
// RUN: %refused threadbind-compile %s --max-blocks=-4 -o %t.ptx 2>&1 | FileCheck %s
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu=max-blocks=-4 -o %t.out.mlir 2>&1 | FileCheck %s

// CHECK: error: threadbind-map-loops-to-threads: max-blocks = -4 is negative

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
