// Sequential loops that only accumulate become scf.parallel reductions;
// loops that do anything else stay as they are.
// RUN: threadbind-opt %s -threadbind-parallelize-loop-reductions=remarks -split-input-file -verify-diagnostics | FileCheck %s
// RUN: threadbind-opt %s -threadbind-parallelize-loop-reductions=floats=false -split-input-file | FileCheck %s --check-prefix=EXACT

// A sum in iter_args.
// CHECK-LABEL: func.func @iter_args_sum
// CHECK: %[[R:.*]] = scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%[[INIT:.*]]) -> f32
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[K]]]
// CHECK: scf.reduce(%[[V]] : f32)
// CHECK: arith.addf
// CHECK: memref.store %[[R]]
// Float sums keep their order with floats=false.
// EXACT-LABEL: func.func @iter_args_sum
// EXACT: scf.for
func.func @iter_args_sum(%x: memref<?xf32>, %out: memref<f32>, %init: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{a reduction: the loop only reads memory and combines with 'arith.addf', so it runs as a parallel reduction}}
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> f32 {
    %v = memref.load %x[%k] : memref<?xf32>
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  }
  memref.store %s, %out[] : memref<f32>
  return
}

// -----

// linalg's accumulator in memory becomes iter_args, then a reduction; the
// integer max is exact, so floats=false takes it too.
// CHECK-LABEL: func.func @accumulator_in_memory
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: %[[INIT:.*]] = memref.load %[[OUT:.*]][%[[I]]]
// CHECK: %[[R:.*]] = scf.parallel (%{{.*}}) = {{.*}} init (%[[INIT]]) -> i32
// CHECK: arith.maxsi
// CHECK: memref.store %[[R]], %[[OUT]][%[[I]]]
// EXACT-LABEL: func.func @accumulator_in_memory
// EXACT: scf.parallel {{.*}} init
func.func @accumulator_in_memory(%a: memref<?x?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    // expected-remark @below {{a reduction: the loop only reads memory and combines with 'arith.maxsi'}}
    scf.for %k = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %k] : memref<?x?xi32>
      %o = memref.load %out[%i] : memref<?xi32>
      %t = arith.maxsi %o, %v : i32
      memref.store %t, %out[%i] : memref<?xi32>
    }
  }
  return
}

// -----

// Not reductions: an update that is not a combining op, a loop that
// writes memory besides its accumulator, an accumulator whose memref the
// loop also reads elsewhere, and a carried value used twice.
// CHECK-LABEL: func.func @not_reductions
// CHECK-COUNT-4: scf.for
// CHECK-NOT: scf.parallel
func.func @not_reductions(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // A decaying average: the carried value is scaled, not combined.
  %avg = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %x[%k] : memref<?xf32>
    %h = arith.mulf %acc, %half : f32
    %t = arith.addf %h, %v : f32
    scf.yield %t : f32
  }
  memref.store %avg, %out[%c0] : memref<4xf32>
  // A prefix sum writes as it goes.
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %x[%k] : memref<?xf32>
    %t = arith.addf %acc, %v : f32
    memref.store %t, %y[%k] : memref<?xf32>
    scf.yield %t : f32
  }
  memref.store %s, %out[%c1] : memref<4xf32>
  // The accumulator's memref is read at another index too.
  scf.for %k = %c0 to %c2 step %c1 {
    %o = memref.load %out[%c2] : memref<4xf32>
    %w = memref.load %out[%k] : memref<4xf32>
    %t = arith.addf %o, %w : f32
    memref.store %t, %out[%c2] : memref<4xf32>
  }
  // The carried value is used twice.
  %q = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %x[%k] : memref<?xf32>
    %t = arith.addf %acc, %v : f32
    %u = arith.addf %t, %acc : f32
    scf.yield %u : f32
  }
  %c3 = arith.constant 3 : index
  memref.store %q, %out[%c3] : memref<4xf32>
  return
}

// -----

// Loops in a row's body whose iterations touch elements of their own become
// scf.parallel: a scaled copy, and an in-place update that reads only the
// element it writes.
// CHECK-LABEL: func.func @independent_rows
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK:   scf.parallel (%[[J:.*]]) =
// CHECK:     memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK:     memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK:   scf.parallel (%[[K:.*]]) =
// CHECK:     memref.load %[[Y:.*]][%[[I]], %[[K]]]
// CHECK:     memref.store %{{.*}}, %[[Y]][%[[I]], %[[K]]]
// CHECK-NOT: scf.for
func.func @independent_rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-remark @below {{independent iterations}}
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %d = arith.mulf %v, %two : f32
      memref.store %d, %y[%i, %j] : memref<?x?xf32>
    }
    // expected-remark @below {{independent iterations}}
    scf.for %k = %c0 to %m step %c1 {
      %v = memref.load %y[%i, %k] : memref<?x?xf32>
      %d = arith.addf %v, %two : f32
      memref.store %d, %y[%i, %k] : memref<?x?xf32>
    }
  }
  return
}

// -----

// Iterations that depend on each other stay sequential: a prefix sum reads
// the element the previous iteration wrote; a store not indexed by the
// induction variable writes one element every iteration; a host loop has
// no threads to share it.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-3: scf.for
func.func @dependent(%y: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c1 to %m step %c1 {
      %p = arith.subi %j, %c1 : index
      %v = memref.load %y[%i, %p] : memref<?x?xf32>
      %w = memref.load %y[%i, %j] : memref<?x?xf32>
      %s = arith.addf %v, %w : f32
      memref.store %s, %y[%i, %j] : memref<?x?xf32>
    }
    scf.for %j = %c0 to %m step %c1 {
      memref.store %two, %y[%i, %c0] : memref<?x?xf32>
    }
  }
  scf.for %j = %c0 to %m step %c1 {
    memref.store %two, %y[%c0, %j] : memref<?x?xf32>
  }
  return
}
