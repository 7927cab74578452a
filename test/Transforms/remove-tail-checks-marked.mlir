// A `threadbind.tail_guard` mark is a hint, not a proof: split acts only
// on the shape a cover launch's check has (blockIdx.x * blockDim.x +
// threadIdx.x < a bound from outside the launch), whoever marked it. A
// hand-written guard with the mark and any other condition keeps its
// check, and the kernel still computes what it computed before.
// RUN: threadbind-opt %s "-threadbind-remove-tail-checks=strategy=split remarks" -verify-diagnostics -split-input-file -o /dev/null
// RUN: threadbind-opt %s -threadbind-remove-tail-checks=strategy=split -split-input-file | FileCheck %s

// Threads 4 to 7 of each block store: the last thread of a block passes,
// but the others need not, so no block is "full".
// CHECK-LABEL: func.func @upper_threads
// CHECK: gpu.launch
// CHECK: %[[P:.*]] = arith.cmpi sgt
// CHECK-NEXT: scf.if %[[P]] {
// CHECK-NOT: else
// CHECK: gpu.terminator
func.func @upper_threads(%a: memref<16xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %p = arith.cmpi sgt, %tx, %c3 : index
    // expected-remark @below {{bounds check kept: it is not blockIdx.x * blockDim.x + threadIdx.x < a bound from outside the launch, so whether a whole block passes is not known}}
    scf.if %p {
      memref.store %one, %a[%i] : memref<16xi32>
    } {threadbind.tail_guard}
    gpu.terminator
  }
  return
}

// -----

// The cover shape, written by hand: split, as the mapping's own would be.
// CHECK-LABEL: func.func @cover_shape
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store
// CHECK: } else {
func.func @cover_shape(%a: memref<?xi32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %p = arith.cmpi slt, %i, %n : index
    // expected-remark @below {{bounds check split}}
    scf.if %p {
      memref.store %one, %a[%i] : memref<?xi32>
    } {threadbind.tail_guard}
    gpu.terminator
  }
  return
}
