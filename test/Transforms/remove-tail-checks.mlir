// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks=strategy=keep -split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks=remarks -split-input-file -verify-diagnostics -o /dev/null

// 1-D: the check runs once per thread, outside any loop. A full-block test
// would cost as much (LLVM merges the copies back into one guarded by both
// tests), so it stays.
// CHECK-LABEL: func.func @copy
// CHECK: gpu.launch
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: scf.if
// CHECK-NOT: else
// CHECK: gpu.terminator
// KEEP-LABEL: func.func @copy
// KEEP: gpu.launch
// KEEP-NEXT: arith.muli
// KEEP-NEXT: arith.addi
// KEEP-NEXT: arith.cmpi
// KEEP-NEXT: scf.if
// KEEP-NOT: else
// KEEP: gpu.terminator
func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: it runs once per thread, outside any loop, so a full-block test would cost as much as it saves}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
  }
  return
}

// -----

// 2-D: the check sits inside the loop over rows; the whole loop is
// versioned, so full blocks (the last thread's start in bounds) loop over
// rows with no compare against the extent.
// CHECK-LABEL: func.func @rows
// CHECK: %[[C:.*]] = memref.dim %{{.*}}, %c1
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in {{.*}} threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%[[BDX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: %[[LAST:.*]] = arith.subi %[[BDX]], %c1
// CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %[[BDX]]
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %[[LAST]]
// CHECK: %[[FULL:.*]] = arith.cmpi slt, %[[END]], %[[C]]
// CHECK: scf.if %[[FULL]] {
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.if
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: scf.if
func.func @rows(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %a, %c0 : memref<?x?xf32>
  %c = memref.dim %a, %c1 : memref<?x?xf32>
  // expected-remark @below {{bounds check split}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// A static extent the grid covers exactly: the check is proven true and
// goes, whatever the strategy.
// CHECK-LABEL: func.func @exact
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: gpu.terminator
// KEEP-LABEL: func.func @exact
// KEEP: gpu.launch
// KEEP-NOT: scf.if
// KEEP: gpu.terminator
func.func @exact(%a: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  // expected-remark @below {{bounds check removed: it holds for every thread, the grid covering the extent exactly}}
  scf.parallel (%i) = (%c0) to (%c1024) step (%c1) {
    %v = memref.load %a[%i] : memref<1024xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<1024xf32>
  }
  return
}

// -----

// A static extent that is not a multiple of the block keeps its check.
// CHECK-LABEL: func.func @ragged
// CHECK: scf.if
// CHECK-NOT: } else {
// CHECK: gpu.terminator
func.func @ragged(%a: memref<1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  // expected-remark @below {{bounds check kept: it runs once per thread}}
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    %v = memref.load %a[%i] : memref<1000xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<1000xf32>
  }
  return
}

// -----

// The loop's attribute overrides the option: this one keeps its check.
// CHECK-LABEL: func.func @kept
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK-NOT: } else {
// CHECK: gpu.terminator
func.func @kept(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-remark @below {{bounds check kept: the tail strategy is 'keep'}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<?xf32>
  } {threadbind.tail = "keep"}
  return
}
