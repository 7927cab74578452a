// RUN: threadbind-opt %s -threadbind-unswitch-uniform-conditions -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-unswitch-uniform-conditions=remarks -split-input-file -verify-diagnostics -o /dev/null

// A kernel-argument condition inside a grid-stride loop: the loop is
// versioned, each version straight-line.
// CHECK-LABEL: func.func @flag
// CHECK: gpu.launch
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: %[[A:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NOT: scf.if
// CHECK: arith.mulf
// CHECK: scf.yield
// CHECK: scf.yield %[[A]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[B:.*]] = scf.for
// CHECK-NOT: scf.if
// CHECK: arith.addf
// CHECK: scf.yield %[[B]] : f32
// CHECK: memref.store %[[R]]
func.func @flag(%a: memref<?xf32>, %n: index, %on: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %sum = scf.for %i = %tx to %n step %c64 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %a[%i] : memref<?xf32>
      // expected-remark @below {{unswitched: the condition is uniform and invariant in the enclosing 'scf.for', which now has a version for each side}}
      %w = scf.if %on -> f32 {
        %m = arith.mulf %v, %two : f32
        scf.yield %m : f32
      } else {
        %p = arith.addf %v, %two : f32
        scf.yield %p : f32
      }
      %next = arith.addf %acc, %w : f32
      scf.yield %next : f32
    }
    memref.store %sum, %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A divergent condition (from the thread id) stays in the loop, and so
// does one computed inside the loop; a host loop is not GPU code.
// CHECK-LABEL: func.func @left_alone
// CHECK: scf.for
// CHECK: scf.if
// CHECK: scf.for
// CHECK: scf.if
func.func @left_alone(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %low = arith.cmpi ult, %tx, %c2 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-remark @below {{not unswitched: its condition is divergent; versions of the loop would split warps}}
      scf.if %low {
        memref.store %zero, %a[%i] : memref<?xf32>
      }
    }
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %a[%i] : memref<?xf32>
      %neg = arith.cmpf olt, %v, %zero : f32
      scf.if %neg {
        memref.store %zero, %a[%i] : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// The condition is hoisted out of the outermost loop it is invariant to
// (here both), and the size budget is honoured.
// CHECK-LABEL: func.func @nested
// CHECK: gpu.launch
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.if
// CHECK: } else {
func.func @nested(%a: memref<?x?xf32>, %n: index, %on: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        // expected-remark @below {{unswitched: the condition is uniform and invariant in the enclosing 'scf.for'}}
        scf.if %on {
          memref.store %zero, %a[%i, %j] : memref<?x?xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}
