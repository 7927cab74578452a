// Conflicting options: zero threads a block. threadbind-compile refuses the
// flag before reading the input; the pass option through threadbind-opt is
// refused before the pass runs. Non-zero exits, nothing written, the input
// as it was.
// RUN: %refused threadbind-compile %s --threads-per-block=0 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu=threads-per-block=0 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=OPT

// COMPILE: threadbind-compile: error: --threads-per-block must be a positive number or 'auto', not '0'
// OPT: error: threadbind-map-loops-to-threads: threads-per-block = 0 is outside [1, 1024]

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
