// The manifest and the bundle's table say what each entry's loops need of
// its arguments' sizes; threadbind-run refuses sizes that break it (which
// would read or write out of bounds) before running anything.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit bundle -o %t/r.so
// RUN: sed -n '/"entries": \[/,$p' %t/r.so.manifest.json | FileCheck %s

// A stencil reading x[i + 1] over the output's size: x needs one more.
// CHECK-LABEL: "name": "shifted",
// CHECK: "requirements": [
// CHECK-NEXT: {
// CHECK-NEXT: "argument": 0,
// CHECK-NEXT: "dimension": 0,
// CHECK-NEXT: "at_least": {
// CHECK-NEXT: "dim": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 0
// CHECK-NEXT: ]
// CHECK-NEXT: },
// CHECK-NEXT: "plus": 1,
// CHECK: "where": "'memref.load' at {{.*}}requirements.mlir:[[@LINE+11]]:10"
// CHECK-NOT: "argument"
// RUN: %python %S/../threadbind-run/Inputs/expect-exit.py 2 threadbind-run %t/r.so --entry shifted --shape 0=10 --shape 1=10 --reference-only 2>&1 | FileCheck %s --check-prefix=SHIFTED
// SHIFTED: error: the sizes do not fit shifted: argument 0 has 10 elements in dimension 0, but 'memref.load' at {{.*}}requirements.mlir:{{[0-9]+}}:10 needs 11 (size 0 of argument 1 + 1)
// RUN: threadbind-run %t/r.so --entry shifted --shape 0=11 --shape 1=10 --reference-only
func.func @shifted(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %j = arith.addi %i, %c1 : index
    %v = memref.load %x[%j] : memref<?xf32>
    memref.store %v, %y[%i] : memref<?xf32>
  }
  return
}

// A loop to a scalar: both memrefs need it; with n = 0 nothing runs.
// CHECK-LABEL: "name": "by_scalar",
// CHECK: "at_least": {
// CHECK-NEXT: "scalar": 1
// CHECK: "when": [
// CHECK-NEXT: {
// CHECK-NEXT: "lower": {
// CHECK-NEXT: "constant": 0
// CHECK-NEXT: },
// CHECK-NEXT: "upper": {
// CHECK-NEXT: "scalar": 1
// RUN: %python %S/../threadbind-run/Inputs/expect-exit.py 2 threadbind-run %t/r.so --entry by_scalar --shape 0=4 --scalar 1=5 --reference-only 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: error: the sizes do not fit by_scalar: argument 0 has 4 elements in dimension 0, but {{.*}} needs 5 (argument 1)
// RUN: threadbind-run %t/r.so --entry by_scalar --shape 0=4 --scalar 1=0 --reference-only
func.func @by_scalar(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %one, %a[%i] : memref<?xi32>
  }
  return
}

// Accesses under a branch, with a step of 2 or through a computed index
// need nothing the loops can promise: no requirement, so no call that
// stays in bounds is ever refused.
// CHECK-LABEL: "name": "guarded",
// CHECK: "requirements": []
func.func @guarded(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %m = memref.dim %b, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %in = arith.cmpi slt, %i, %m : index
    scf.if %in {
      %v = memref.load %b[%i] : memref<?xf32>
      memref.store %v, %a[%i] : memref<?xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c2) {
    %h = arith.divui %i, %c2 : index
    %v = memref.load %b[%h] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}

// A linalg op: its loops run over the first operand's sizes, and the
// others must keep up (both dimensions of the output here).
// CHECK-LABEL: "name": "add2d",
// CHECK: "argument": 1,
// CHECK-NEXT: "dimension": 0,
// CHECK: "argument": 2,
// CHECK-NEXT: "dimension": 0,
// CHECK: "argument": 2,
// CHECK-NEXT: "dimension": 1,
// RUN: %python %S/../threadbind-run/Inputs/expect-exit.py 2 threadbind-run %t/r.so --entry add2d --shape 0=4x8 --shape 1=4x8 --shape 2=4x7 --reference-only 2>&1 | FileCheck %s --check-prefix=LINALG
// LINALG: error: the sizes do not fit add2d: argument 2 has 7 elements in dimension 1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add2d(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                 %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
      outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// A constant index: x[3] needs 4 elements, whatever the loop; an access
// under a branch needs nothing the host can tell.
// CHECK-LABEL: "name": "pinned",
// CHECK: "argument": 0,
// CHECK-NEXT: "dimension": 0,
// CHECK-NEXT: "at_least": {
// CHECK-NEXT: "constant": 4
// CHECK-NEXT: },
// CHECK-NEXT: "plus": 0,
// CHECK: "where": "'memref.load' at {{.*}}requirements.mlir:[[@LINE+11]]:8"
// CHECK-NOT: "constant": 8
// RUN: %python %S/../threadbind-run/Inputs/expect-exit.py 2 threadbind-run %t/r.so --entry pinned --shape 0=3 --shape 1=10 --scalar 2=0 --reference-only 2>&1 | FileCheck %s --check-prefix=PINNED
// PINNED: error: the sizes do not fit pinned: argument 0 has 3 elements in dimension 0, but 'memref.load' at {{.*}}requirements.mlir:{{[0-9]+}}:8 needs 4
// RUN: threadbind-run %t/r.so --entry pinned --shape 0=4 --shape 1=10 --scalar 2=0 --reference-only
func.func @pinned(%x: memref<?xf32>, %y: memref<?xf32>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %n = memref.dim %y, %c0 : memref<?xf32>
  %v = memref.load %x[%c3] : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %y[%i] : memref<?xf32>
  }
  scf.if %flag {
    %w = memref.load %x[%c7] : memref<?xf32>
    memref.store %w, %y[%c0] : memref<?xf32>
  }
  return
}
