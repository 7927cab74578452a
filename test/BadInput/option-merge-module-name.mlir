// threadbind-merge-gpu-modules with a module name PTX cannot hold (empty,
// or with a '.'): before issue 22 an empty name gave an invalid symbol and
// exit 0. Now an error, and the IR is left as it was.
// RUN: %refused threadbind-opt %s -gpu-kernel-outlining "-threadbind-merge-gpu-modules=module-name=" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: %refused threadbind-opt %s -gpu-kernel-outlining -threadbind-merge-gpu-modules=module-name=a.b -o %t.mlir 2>&1 | FileCheck %s --check-prefix=DOT
// EMPTY: error: threadbind-merge-gpu-modules: module-name '' is not a symbol PTX can name
// DOT: error: threadbind-merge-gpu-modules: module-name 'a.b' is not a symbol PTX can name

func.func @k(%a: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
