// Conflicting options: 2048 threads a block, twice what a block can hold,
// through threadbind-compile (threadbind-opt has its own test in
// test/Transforms/map-loops-to-threads-untouched.mlir).
// RUN: %refused threadbind-compile %s --threads-per-block=2048 -o %t.ptx 2>&1 | FileCheck %s

// CHECK: error: threadbind-map-loops-to-threads: threads-per-block = 2048 is outside [1, 1024]

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
