// Conflicting options: zero threads a block. threadbind-compile refuses the
// flag before reading the input; threadbind-opt refuses the pipeline option
// and the pass option. Non-zero exits, nothing written, the input as it
// was.
// RUN: %refused threadbind-compile %s --threads-per-block=0 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu=threads-per-block=0 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: %refused threadbind-opt %s -threadbind-map-loops-to-threads=threads-per-block=0 -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=PASS

// COMPILE: threadbind-compile: for the --threads-per-block option: must be a positive number or 'auto', not '0'
// OPT: threadbind-opt: for the --threads-per-block option: must be a positive number or 'auto', not '0'
// PASS: error: threadbind-map-loops-to-threads: threads-per-block = 0 is outside [1, 1024]

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
