// An input path that a C comment or string could not hold ('*/' and '"'):
// the bundle's entry table named it in a C comment, and the build failed
// at 0:0 before issue 22. The table is LLVM globals now.
// RUN: rm -rf %t && mkdir -p '%t/a*/"b'
// RUN: cp %s '%t/a*/"b/in.mlir'
// RUN: threadbind-compile '%t/a*/"b/in.mlir' --emit bundle -o %t/path.so
// RUN: threadbind-run %t/path.so --entry ones --size 5 --reference-only --print | FileCheck %s
// CHECK: reference arg0: sum 5, first [1, 1, 1, 1, 1]

func.func @ones(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
