// One-trip dimensions are dropped and zero-trip loops removed, but a loop
// whose every dimension runs once stays a loop.
// RUN: threadbind-opt %s -threadbind-fold-trivial-parallel-dims | FileCheck %s
// The normalize pipeline uses it in place of upstream's folding, so such a
// loop still becomes a kernel instead of a store on the host.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAP

// CHECK-LABEL: func.func @runs_once
// CHECK: scf.parallel (%[[I:.*]]) = (%c3) to (%c4) step (%c1)
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]]
// MAP-LABEL: func.func @runs_once
// MAP: gpu.launch
// MAP: memref.store
func.func @runs_once(%a: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c3) to (%c4) step (%c1) {
    memref.store %f, %a[%i] : memref<8xf32>
  }
  return
}

// Two dimensions that run once: the last stays, the first becomes its
// lower bound. A step larger than the span is still one trip.
// CHECK-LABEL: func.func @all_once_2d
// CHECK: scf.parallel (%[[J:.*]]) = (%c5) to (%c6) step (%c100)
// CHECK: memref.store %{{.*}}, %{{.*}}[%c2, %[[J]]]
// MAP-LABEL: func.func @all_once_2d
// MAP: gpu.launch
func.func @all_once_2d(%a: memref<8x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c100 = arith.constant 100 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c2, %c5) to (%c3, %c6) step (%c1, %c100) {
    memref.store %f, %a[%i, %j] : memref<8x8xf32>
  }
  return
}

// A one-trip dimension beside a real one is dropped.
// It remembers which dimensions as written the kept ones are, for
// dim-order.
// CHECK-LABEL: func.func @mixed
// CHECK: scf.parallel (%[[J:.*]]) = (%c0) to (%c8) step (%c1)
// CHECK: memref.store %{{.*}}, %{{.*}}[%c7, %[[J]]]
// CHECK: threadbind.written_dims = array<i64: 1>, threadbind.written_rank = 2
func.func @mixed(%a: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c7, %c0) to (%c8, %c8) step (%c1, %c1) {
    memref.store %f, %a[%i, %j] : memref<8x8xf32>
  }
  return
}

// No iteration: the loop goes, its result is its init. Bounds at the ends
// of the index range do not overflow the trip count.
// CHECK-LABEL: func.func @no_trips
// CHECK-NOT: scf.parallel
// CHECK: return %[[INIT:.*]] : f32
// Mapped, the function is an entry whose result leaves through an
// argument: the stored result keeps the loop, as in @no_trips_stored.
// MAP-LABEL: func.func @no_trips(
// MAP-SAME: {threadbind.result = 0 : i64}
// MAP: gpu.launch
func.func @no_trips(%a: memref<8xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.parallel (%i) = (%c8) to (%c0) step (%c1) init (%init) -> f32 {
    %v = memref.load %a[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// The full index range is not one trip, even with the largest step.
// CHECK-LABEL: func.func @wide_span
// CHECK: scf.parallel (%{{.*}}) = (%[[LO:.*]]) to (%[[HI:.*]]) step
func.func @wide_span(%a: memref<?xf32>) {
  %lo = arith.constant -9223372036854775808 : index
  %hi = arith.constant 9223372036854775807 : index
  %step = arith.constant 9223372036854775807 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%lo) to (%hi) step (%step) {
    memref.store %f, %a[%c0] : memref<?xf32>
  }
  return
}

// A loop with results keeps its reduction when a dimension is dropped.
// CHECK-LABEL: func.func @reduction_row
// CHECK: %[[R:.*]] = scf.parallel (%[[J:.*]]) = (%c0) to (%{{.*}}) step (%c1) init (%{{.*}}) -> f32
// CHECK: memref.load %{{.*}}[%c2, %[[J]]]
// CHECK: scf.reduce
// CHECK: memref.store %[[R]]
func.func @reduction_row(%a: memref<?x?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %z = arith.constant 0.0 : f32
  %r = scf.parallel (%i, %j) = (%c2, %c0) to (%c3, %n) step (%c1, %c1) init (%z) -> f32 {
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// No iteration, the result only stored: the loop stays, so the store is
// the reduction kernel's, not host code on device memory.
// CHECK-LABEL: func.func @no_trips_stored
// CHECK: %[[R:.*]] = scf.parallel
// CHECK: memref.store %[[R]]
// MAP-LABEL: func.func @no_trips_stored
// MAP: gpu.launch
func.func @no_trips_stored(%a: memref<8xf32>, %out: memref<1xf32>, %init: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.parallel (%i) = (%c8) to (%c0) step (%c1) init (%init) -> f32 {
    %v = memref.load %a[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}
