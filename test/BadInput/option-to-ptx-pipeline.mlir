// Bad option values to the threadbind-to-ptx pipeline of threadbind-opt: an
// unsupported chip, an optimisation level past 3, and auto threads a block,
// which only threadbind-compile can choose; and any option to
// threadbind-normalize, which takes none. Each is an error naming the
// value, not an abort or a silent exit.
// RUN: %refused threadbind-opt %s -threadbind-to-ptx="chip=sm_50" -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: %refused threadbind-opt %s -threadbind-to-ptx="opt-level=9" -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=LEVEL

// CHIP: error: unsupported chip 'sm_50'; supported: sm_75,
// RUN: %refused threadbind-opt %s -threadbind-to-ptx="threads-per-block=auto" -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=auto" -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: %refused threadbind-opt %s -threadbind-normalize="loop-reductions=false" -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=NORMALIZE
// LEVEL: error: opt-level must be 0 to 3
// NORMALIZE: error: threadbind-normalize takes no options, not 'loop-reductions=false'
// AUTO: error: threads-per-block=auto is threadbind-compile's: it assembles the kernels with ptxas to weigh each size; give a number

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
