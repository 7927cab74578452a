// An explicit block shape with more dimensions than the loop binds must not
// run an iteration once per unused thread index: in-place accumulation
// (a[i] += 1) shows a repeated iteration as a count above 1. Every loop
// below adds 1 to each element once, so every count printed must be 1, for
// 1-D, 2-D and 3-D loops under block shapes of every rank, grid-stride and
// cover, the row-per-block nest included.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=8,4,2" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.842
// RUN: diff %t.ref %t.842
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=32,2" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.322
// RUN: diff %t.ref %t.322
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=4,4,4 grid-policy=cover" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.444
// RUN: diff %t.ref %t.444
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=1,1,2 max-blocks=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.112
// RUN: diff %t.ref %t.112
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=16,2,2" -threadbind-remove-tail-checks=strategy=split -threadbind-widen-accesses=nested-loops -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.pipe
// RUN: diff %t.ref %t.pipe

// The remark says how the shape was fitted.
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="block-shape=8,4,2 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: block 64x1x1, grid-stride grid; block-shape 8x4x2 fitted to the 1 bound dimension, so no thread repeats another's iterations
// REMARK: block 8x8x1, grid-stride grid; block-shape 8x4x2 fitted to the 2 bound dimensions
// REMARK: block 8x4x2, grid-stride grid
// REMARK-NOT: fitted
// REMARK: one iteration per block, nested loop dimension 0 on threadIdx.x {{.*}}; block 64x1x1, grid-stride grid; block-shape 8x4x2 fitted

func.func @add1_1d(%a: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = memref.dim %a, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = arith.addi %x, %one : i32
    memref.store %y, %a[%i] : memref<?xi32>
  }
  return
}

func.func @add1_2d(%a: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xi32>
    %y = arith.addi %x, %one : i32
    memref.store %y, %a[%i, %j] : memref<?x?xi32>
  }
  return
}

func.func @add1_3d(%a: memref<?x?x?xi32>) {
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
    %y = arith.addi %x, %one : i32
    memref.store %y, %a[%i, %j, %k] : memref<?x?x?xi32>
  }
  return
}

// A nest whose inner bounds depend on the row: one row per block, the
// columns (j < i) over the block's threads.
func.func @add1_triangle(%a: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %i1 = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%i1) step (%c1) {
      %x = memref.load %a[%i, %j] : memref<?x?xi32>
      %y = arith.addi %x, %one : i32
      memref.store %y, %a[%i, %j] : memref<?x?xi32>
    }
  }
  return
}

func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c4 = arith.constant 4 : index
  return %c4 : index
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

// CHECK: sum 37
// CHECK-NEXT: max 1
// CHECK-NEXT: sum 205
// CHECK-NEXT: max 1
// CHECK-NEXT: sum 105
// CHECK-NEXT: max 1
// CHECK-NEXT: sum 10
// CHECK-NEXT: max 1
func.func @main() {
  %a1 = memref.alloc() : memref<37xi32>
  %d1 = memref.cast %a1 : memref<37xi32> to memref<?xi32>
  call @zero(%d1) : (memref<?xi32>) -> ()
  call @add1_1d(%d1) : (memref<?xi32>) -> ()
  call @report(%d1) : (memref<?xi32>) -> ()

  %a2 = memref.alloc() : memref<5x41xi32>
  %f2 = memref.collapse_shape %a2 [[0, 1]] : memref<5x41xi32> into memref<205xi32>
  %g2 = memref.cast %f2 : memref<205xi32> to memref<?xi32>
  call @zero(%g2) : (memref<?xi32>) -> ()
  %d2 = memref.cast %a2 : memref<5x41xi32> to memref<?x?xi32>
  call @add1_2d(%d2) : (memref<?x?xi32>) -> ()
  call @report(%g2) : (memref<?xi32>) -> ()

  %a3 = memref.alloc() : memref<3x5x7xi32>
  %f3 = memref.collapse_shape %a3 [[0, 1, 2]] : memref<3x5x7xi32> into memref<105xi32>
  %g3 = memref.cast %f3 : memref<105xi32> to memref<?xi32>
  call @zero(%g3) : (memref<?xi32>) -> ()
  %d3 = memref.cast %a3 : memref<3x5x7xi32> to memref<?x?x?xi32>
  call @add1_3d(%d3) : (memref<?x?x?xi32>) -> ()
  call @report(%g3) : (memref<?xi32>) -> ()

  // The triangle adds to 1 + 2 + 3 + 4 elements.
  %a4 = memref.alloc() : memref<4x4xi32>
  %f4 = memref.collapse_shape %a4 [[0, 1]] : memref<4x4xi32> into memref<16xi32>
  %g4 = memref.cast %f4 : memref<16xi32> to memref<?xi32>
  call @zero(%g4) : (memref<?xi32>) -> ()
  %d4 = memref.cast %a4 : memref<4x4xi32> to memref<?x?xi32>
  call @add1_triangle(%d4) : (memref<?x?xi32>) -> ()
  call @report(%g4) : (memref<?xi32>) -> ()
  memref.dealloc %a1 : memref<37xi32>
  memref.dealloc %a2 : memref<5x41xi32>
  memref.dealloc %a3 : memref<3x5x7xi32>
  memref.dealloc %a4 : memref<4x4xi32>
  return
}
