// Bad option values: a threads-per-block that is no number, to both tools.
// (After threadbind-opt's message, MLIR's pass-option parser adds an empty
// "<unknown>:0: error:" line of its own.)
// RUN: %refused threadbind-compile %s --threads-per-block=many -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %refused threadbind-opt %s -threadbind-map-to-gpu=threads-per-block=many -o %t.out.mlir 2>&1 | FileCheck %s --check-prefix=OPT

// COMPILE: threadbind-compile: for the --threads-per-block option: must be a positive number or 'auto', not 'many'
// OPT: threadbind-opt: for the --threads-per-block option: must be a positive number or 'auto', not 'many'

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
