// Every input form reaches gpu.launch through threadbind-map-to-gpu:
// scf.forall, affine.parallel and linalg on memrefs are normalised to
// scf.parallel first, and perfectly nested parallel loops are merged.
// RUN: threadbind-opt %s -threadbind-normalize -split-input-file | FileCheck %s --check-prefix=NORM
// RUN: threadbind-opt %s -threadbind-map-to-gpu -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=128" -split-input-file | FileCheck %s --check-prefix=OPTS

// NORM-LABEL: func.func @forall
// NORM: scf.parallel (%{{.*}}, %{{.*}}) =
// NORM-NOT: scf.forall
// CHECK-LABEL: func.func @forall
// CHECK: gpu.launch
// CHECK-NOT: scf.forall
// OPTS-LABEL: func.func @forall
// OPTS: threads({{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}})
// OPTS: scf.if
// OPTS: {threadbind.grid_policy = "cover"}
func.func @forall(%a: memref<?x?xf32>, %m: index, %n: index) {
  %f = arith.constant 2.0 : f32
  scf.forall (%i, %j) in (%m, %n) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// NORM-LABEL: func.func @affine_parallel
// NORM: scf.parallel
// NORM-NOT: affine.parallel
// CHECK-LABEL: func.func @affine_parallel
// CHECK: gpu.launch
// CHECK-NOT: affine.
func.func @affine_parallel(%a: memref<100x200xf32>) {
  %f = arith.constant 2.0 : f32
  affine.parallel (%i, %j) = (0, 0) to (100, 200) {
    %x = affine.load %a[%i, %j] : memref<100x200xf32>
    %y = arith.mulf %x, %f : f32
    affine.store %y, %a[%i, %j] : memref<100x200xf32>
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// NORM-LABEL: func.func @linalg_generic
// NORM: scf.parallel (%{{.*}}, %{{.*}}) =
// NORM-NOT: linalg.generic
// CHECK-LABEL: func.func @linalg_generic
// CHECK: gpu.launch
// CHECK-NOT: linalg.
func.func @linalg_generic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Perfectly nested loops with invariant bounds become one 2-D loop.
// NORM-LABEL: func.func @nested
// NORM: scf.parallel (%{{.*}}, %{{.*}}) =
// NORM-NOT: scf.parallel
// CHECK-LABEL: func.func @nested
// CHECK: gpu.launch
// CHECK-NOT: scf.parallel
func.func @nested(%a: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = arith.mulf %x, %f : f32
      memref.store %y, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
