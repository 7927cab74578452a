// A grid-stride grid whose last two dimensions are balanced (see
// map-loops-grid-balance.mlir) must still run every iteration exactly once.
// Each loop adds 1 (and two zeros, read from a neighbourhood of a zero
// array, which is what asks for the balanced grid) to every element of its
// array, so every count printed must be the array's size with a largest
// count of 1, under resident-block caps that pick the balanced grid for
// some shapes and the greedy one for others, at sizes known at compile
// time and at run time.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=4,2,1 max-blocks=5" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.5
// RUN: diff %t.ref %t.5
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=4,2,1 max-blocks=7" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.7
// RUN: diff %t.ref %t.7
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=4,2,1 max-blocks=13" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.13
// RUN: diff %t.ref %t.13
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=4,2,1" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.host
// RUN: diff %t.ref %t.host

// At 7 resident blocks the sizes known at compile time get balanced grids
// (greedily: 2x3x1, 2x3x1 and 1x7x1); the stream, which reads no
// neighbourhood, keeps the greedy one.
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=4,2,1 max-blocks=7" -canonicalize | FileCheck %s --check-prefix=GRID
// GRID-LABEL: func.func @add1_3x7x5
// GRID-DAG: %[[C1:.*]] = arith.constant 1 : index
// GRID-DAG: %[[C2:.*]] = arith.constant 2 : index
// GRID-DAG: %[[C3:.*]] = arith.constant 3 : index
// GRID: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %[[C1]], %{{.*}} = %[[C3]])
// GRID-LABEL: func.func @add1_13x7x5
// GRID-DAG: %[[C1:.*]] = arith.constant 1 : index
// GRID-DAG: %[[C2:.*]] = arith.constant 2 : index
// GRID-DAG: %[[C3:.*]] = arith.constant 3 : index
// GRID: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %[[C1]], %{{.*}} = %[[C3]])
// GRID-LABEL: func.func @add1_3x15x2
// GRID-DAG: %[[C1:.*]] = arith.constant 1 : index
// GRID-DAG: %[[C2:.*]] = arith.constant 2 : index
// GRID-DAG: %[[C3:.*]] = arith.constant 3 : index
// GRID: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C2]], %{{.*}} = %[[C3]])
// GRID-LABEL: func.func @stream_3x7x5
// GRID-DAG: %[[C1:.*]] = arith.constant 1 : index
// GRID-DAG: %[[C2:.*]] = arith.constant 2 : index
// GRID-DAG: %[[C3:.*]] = arith.constant 3 : index
// GRID: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %[[C3]], %{{.*}} = %[[C1]])

func.func @add1_3d(%a: memref<?x?x?xi32>, %z: memref<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %l = memref.dim %a, %c0 : memref<?x?x?xi32>
  %m = memref.dim %a, %c1 : memref<?x?x?xi32>
  %n = memref.dim %a, %c2 : memref<?x?x?xi32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%l, %m, %n)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<?x?x?xi32>
    %z0 = memref.load %z[%i, %j, %k] : memref<?x?x?xi32>
    %z1 = memref.load %z[%c0, %j, %k] : memref<?x?x?xi32>
    %y = arith.addi %x, %one : i32
    %y1 = arith.addi %y, %z0 : i32
    %y2 = arith.addi %y1, %z1 : i32
    memref.store %y2, %a[%i, %j, %k] : memref<?x?x?xi32>
  }
  return
}

func.func @add1_3x7x5(%a: memref<3x7x5xi32>, %z: memref<3x7x5xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %l = memref.dim %a, %c0 : memref<3x7x5xi32>
  %m = memref.dim %a, %c1 : memref<3x7x5xi32>
  %n = memref.dim %a, %c2 : memref<3x7x5xi32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%l, %m, %n)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<3x7x5xi32>
    %z0 = memref.load %z[%i, %j, %k] : memref<3x7x5xi32>
    %z1 = memref.load %z[%c0, %j, %k] : memref<3x7x5xi32>
    %y = arith.addi %x, %one : i32
    %y1 = arith.addi %y, %z0 : i32
    %y2 = arith.addi %y1, %z1 : i32
    memref.store %y2, %a[%i, %j, %k] : memref<3x7x5xi32>
  }
  return
}

func.func @add1_13x7x5(%a: memref<13x7x5xi32>, %z: memref<13x7x5xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %l = memref.dim %a, %c0 : memref<13x7x5xi32>
  %m = memref.dim %a, %c1 : memref<13x7x5xi32>
  %n = memref.dim %a, %c2 : memref<13x7x5xi32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%l, %m, %n)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<13x7x5xi32>
    %z0 = memref.load %z[%i, %j, %k] : memref<13x7x5xi32>
    %z1 = memref.load %z[%c0, %j, %k] : memref<13x7x5xi32>
    %y = arith.addi %x, %one : i32
    %y1 = arith.addi %y, %z0 : i32
    %y2 = arith.addi %y1, %z1 : i32
    memref.store %y2, %a[%i, %j, %k] : memref<13x7x5xi32>
  }
  return
}

func.func @add1_3x15x2(%a: memref<3x15x2xi32>, %z: memref<3x15x2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %l = memref.dim %a, %c0 : memref<3x15x2xi32>
  %m = memref.dim %a, %c1 : memref<3x15x2xi32>
  %n = memref.dim %a, %c2 : memref<3x15x2xi32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%l, %m, %n)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<3x15x2xi32>
    %z0 = memref.load %z[%i, %j, %k] : memref<3x15x2xi32>
    %z1 = memref.load %z[%c0, %j, %k] : memref<3x15x2xi32>
    %y = arith.addi %x, %one : i32
    %y1 = arith.addi %y, %z0 : i32
    %y2 = arith.addi %y1, %z1 : i32
    memref.store %y2, %a[%i, %j, %k] : memref<3x15x2xi32>
  }
  return
}

func.func @stream_3x7x5(%a: memref<3x7x5xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %l = memref.dim %a, %c0 : memref<3x7x5xi32>
  %m = memref.dim %a, %c1 : memref<3x7x5xi32>
  %n = memref.dim %a, %c2 : memref<3x7x5xi32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%l, %m, %n)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<3x7x5xi32>
    %y = arith.addi %x, %one : i32
    memref.store %y, %a[%i, %j, %k] : memref<3x7x5xi32>
  }
  return
}

func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c6 = arith.constant 6 : index
  return %c6 : index
}

func.func @zero(%flat: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %flat, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %flat[%i] : memref<?xi32>
  }
  return
}

// Prints how many elements the loops added to and the largest count.
func.func @report(%flat: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %flat, %c0 : memref<?xi32>
  %sum, %max = scf.for %i = %c0 to %n step %c1
      iter_args(%s = %zero, %m = %zero) -> (i32, i32) {
    %v = memref.load %flat[%i] : memref<?xi32>
    %s1 = arith.addi %s, %v : i32
    %m1 = arith.maxsi %m, %v : i32
    scf.yield %s1, %m1 : i32, i32
  }
  vector.print str "sum "
  vector.print %sum : i32
  vector.print str "max "
  vector.print %max : i32
  return
}

// Each array twice: through the loop of run-time sizes, then through its
// own of compile-time sizes; the first a third time, through the stream.
// CHECK: sum 105
// CHECK-NEXT: max 1
// CHECK: sum 105
// CHECK-NEXT: max 1
// CHECK: sum 105
// CHECK-NEXT: max 1
// CHECK: sum 455
// CHECK-NEXT: max 1
// CHECK: sum 455
// CHECK-NEXT: max 1
// CHECK: sum 90
// CHECK-NEXT: max 1
// CHECK: sum 90
// CHECK-NEXT: max 1
func.func @main() {
  %a0 = memref.alloc() : memref<3x7x5xi32>
  %z0 = memref.alloc() : memref<3x7x5xi32>
  %zf0 = memref.collapse_shape %z0 [[0, 1, 2]] : memref<3x7x5xi32> into memref<105xi32>
  %zg0 = memref.cast %zf0 : memref<105xi32> to memref<?xi32>
  call @zero(%zg0) : (memref<?xi32>) -> ()
  %f0 = memref.collapse_shape %a0 [[0, 1, 2]] : memref<3x7x5xi32> into memref<105xi32>
  %g0 = memref.cast %f0 : memref<105xi32> to memref<?xi32>
  %d0 = memref.cast %a0 : memref<3x7x5xi32> to memref<?x?x?xi32>
  %e0 = memref.cast %z0 : memref<3x7x5xi32> to memref<?x?x?xi32>
  call @zero(%g0) : (memref<?xi32>) -> ()
  call @add1_3d(%d0, %e0) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  call @report(%g0) : (memref<?xi32>) -> ()
  call @zero(%g0) : (memref<?xi32>) -> ()
  call @add1_3x7x5(%a0, %z0) : (memref<3x7x5xi32>, memref<3x7x5xi32>) -> ()
  call @report(%g0) : (memref<?xi32>) -> ()
  call @zero(%g0) : (memref<?xi32>) -> ()
  call @stream_3x7x5(%a0) : (memref<3x7x5xi32>) -> ()
  call @report(%g0) : (memref<?xi32>) -> ()
  memref.dealloc %a0 : memref<3x7x5xi32>
  memref.dealloc %z0 : memref<3x7x5xi32>
  %a1 = memref.alloc() : memref<13x7x5xi32>
  %z1 = memref.alloc() : memref<13x7x5xi32>
  %zf1 = memref.collapse_shape %z1 [[0, 1, 2]] : memref<13x7x5xi32> into memref<455xi32>
  %zg1 = memref.cast %zf1 : memref<455xi32> to memref<?xi32>
  call @zero(%zg1) : (memref<?xi32>) -> ()
  %f1 = memref.collapse_shape %a1 [[0, 1, 2]] : memref<13x7x5xi32> into memref<455xi32>
  %g1 = memref.cast %f1 : memref<455xi32> to memref<?xi32>
  %d1 = memref.cast %a1 : memref<13x7x5xi32> to memref<?x?x?xi32>
  %e1 = memref.cast %z1 : memref<13x7x5xi32> to memref<?x?x?xi32>
  call @zero(%g1) : (memref<?xi32>) -> ()
  call @add1_3d(%d1, %e1) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  call @report(%g1) : (memref<?xi32>) -> ()
  call @zero(%g1) : (memref<?xi32>) -> ()
  call @add1_13x7x5(%a1, %z1) : (memref<13x7x5xi32>, memref<13x7x5xi32>) -> ()
  call @report(%g1) : (memref<?xi32>) -> ()
  memref.dealloc %a1 : memref<13x7x5xi32>
  memref.dealloc %z1 : memref<13x7x5xi32>
  %a2 = memref.alloc() : memref<3x15x2xi32>
  %z2 = memref.alloc() : memref<3x15x2xi32>
  %zf2 = memref.collapse_shape %z2 [[0, 1, 2]] : memref<3x15x2xi32> into memref<90xi32>
  %zg2 = memref.cast %zf2 : memref<90xi32> to memref<?xi32>
  call @zero(%zg2) : (memref<?xi32>) -> ()
  %f2 = memref.collapse_shape %a2 [[0, 1, 2]] : memref<3x15x2xi32> into memref<90xi32>
  %g2 = memref.cast %f2 : memref<90xi32> to memref<?xi32>
  %d2 = memref.cast %a2 : memref<3x15x2xi32> to memref<?x?x?xi32>
  %e2 = memref.cast %z2 : memref<3x15x2xi32> to memref<?x?x?xi32>
  call @zero(%g2) : (memref<?xi32>) -> ()
  call @add1_3d(%d2, %e2) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  call @report(%g2) : (memref<?xi32>) -> ()
  call @zero(%g2) : (memref<?xi32>) -> ()
  call @add1_3x15x2(%a2, %z2) : (memref<3x15x2xi32>, memref<3x15x2xi32>) -> ()
  call @report(%g2) : (memref<?xi32>) -> ()
  memref.dealloc %a2 : memref<3x15x2xi32>
  memref.dealloc %z2 : memref<3x15x2xi32>
  return
}
