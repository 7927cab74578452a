// Cover launches whose bounds checks were split off full blocks (or proven
// dead), run on the CPU through the gpu.launch emulation, print what the
// originals print. T is the block's extent along x (256 in 1-D, 32 in 2-D);
// the sizes are 3T-1, 3T, 3T+1, T-1, 1 and 0, under both strategies, and
// two static extents (one a multiple of T, whose check is proven dead).
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks=strategy=split > %t.split.mlir
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split.mlir
// RUN: threadbind-opt %t.split.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.split
// RUN: diff %t.ref %t.split
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks=strategy=keep -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.keep
// RUN: diff %t.ref %t.keep
// Nothing here is padded, so the pad strategy keeps the checks.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks=strategy=pad -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.pad
// RUN: diff %t.ref %t.pad

// Every dynamic kernel was split, and the exact static one lost its check.
// SPLIT-LABEL: func.func @scale
// SPLIT: scf.if {{.*}} {
// SPLIT: } else {
// @rows has two copies, the host choosing: a thread a row where the
// grid covers the rows, and a loop over rows; each is split.
// SPLIT-LABEL: func.func @rows
// SPLIT: gpu.launch
// SPLIT: scf.if {{.*}} {
// SPLIT-NEXT: scf.if
// SPLIT: } else {
// SPLIT: gpu.launch
// SPLIT: scf.if {{.*}} {
// SPLIT-NEXT: scf.for
// SPLIT: } else {
// SPLIT-LABEL: func.func @exact
// SPLIT: gpu.launch
// SPLIT-NOT: scf.if
// SPLIT: gpu.terminator
// SPLIT-LABEL: func.func @ragged
// SPLIT: } else {

// y[i] = 2 x[i] + i
func.func @scale(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %d = arith.mulf %v, %two : f32
    %r = arith.addf %d, %fi : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// m[i, j] = m[i, j] * 3 + j, rows of any length
func.func @rows(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    %jj = arith.index_cast %j : index to i64
    %fj = arith.sitofp %jj : i64 to f32
    %t = arith.mulf %v, %three : f32
    %s = arith.addf %t, %fj : f32
    memref.store %s, %m[%i, %j] : memref<?x?xf32>
  }
  return
}

// Static extents: 512 is two full blocks, 300 is not.
func.func @exact(%x: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    %v = memref.load %x[%i] : memref<512xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %x[%i] : memref<512xf32>
  }
  return
}

func.func @ragged(%x: memref<300xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c300) step (%c1) {
    %v = memref.load %x[%i] : memref<300xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %x[%i] : memref<300xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// Prints the element count and the sum, so thousands of elements compare
// in two numbers; the inputs make every element distinct, so a skipped or
// repeated iteration changes the sum.
func.func @summarise(%y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %y, %c0 : memref<?xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %y[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  vector.print %n : index
  vector.print %sum : f32
  return
}

func.func @summarise_rows(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  %sum = scf.for %i = %c0 to %r step %c1 iter_args(%acc = %zero) -> f32 {
    %row = scf.for %j = %c0 to %c step %c1 iter_args(%a = %acc) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %s = arith.addf %a, %v : f32
      scf.yield %s : f32
    }
    scf.yield %row : f32
  }
  %count = arith.muli %r, %c : index
  vector.print %count : index
  vector.print %sum : f32
  return
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %minus = arith.constant -1.0 : f32
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    memref.store %fi, %x[%i] : memref<?xf32>
    memref.store %minus, %y[%i] : memref<?xf32>
  }
  call @scale(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  call @summarise(%y) : (memref<?xf32>) -> ()
  // 3 rows of n columns: along x the block is 32 wide.
  %m = memref.alloc(%c3, %n) : memref<?x?xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %minus, %m[%i, %j] : memref<?x?xf32>
    }
  }
  call @rows(%m) : (memref<?x?xf32>) -> ()
  call @summarise_rows(%m) : (memref<?x?xf32>) -> ()
  memref.dealloc %m : memref<?x?xf32>
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %y : memref<?xf32>
  return
}

func.func @check_static() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<512xf32>
  %b = memref.alloc() : memref<300xf32>
  %c512 = arith.constant 512 : index
  %c300 = arith.constant 300 : index
  scf.for %i = %c0 to %c512 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    memref.store %fi, %a[%i] : memref<512xf32>
  }
  scf.for %i = %c0 to %c300 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    memref.store %fi, %b[%i] : memref<300xf32>
  }
  call @exact(%a) : (memref<512xf32>) -> ()
  call @ragged(%b) : (memref<300xf32>) -> ()
  %da = memref.cast %a : memref<512xf32> to memref<?xf32>
  %db = memref.cast %b : memref<300xf32> to memref<?xf32>
  call @summarise(%da) : (memref<?xf32>) -> ()
  call @summarise(%db) : (memref<?xf32>) -> ()
  memref.dealloc %a : memref<512xf32>
  memref.dealloc %b : memref<300xf32>
  return
}

// n = 767: y sums 3i = 3 * 767 * 766 / 2; the 3 x 767 matrix holds j - 3,
// summing to 3 * (767 * 766 / 2 - 3 * 767).
// CHECK: 767
// CHECK-NEXT: 881283
// CHECK-NEXT: 2301
// CHECK-NEXT: 874380
func.func @main() {
  %sizes = memref.get_global @sizes : memref<10xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.for %k = %c0 to %c10 step %c1 {
    %n = memref.load %sizes[%k] : memref<10xindex>
    func.call @check(%n) : (index) -> ()
  }
  call @check_static() : () -> ()
  return
}

memref.global "private" constant @sizes : memref<10xindex> =
    dense<[767, 768, 769, 255, 1, 0, 31, 32, 33, 65]>
