// Bad option values: a negative --dim-order, refused before the pass runs.
// RUN: %refused threadbind-compile %s --dim-order=-1 -o %t.ptx 2>&1 | FileCheck %s
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu=dim-order=-1 -o %t.out.mlir 2>&1 | FileCheck %s

// CHECK: error: threadbind-map-loops-to-threads: dim-order has a negative dimension -1

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
