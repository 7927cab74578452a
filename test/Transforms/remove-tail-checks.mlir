// The split and keep strategies, and checks proven dead under any; the pad
// strategy (the default) has its own file.
// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover collapse-nests=false" -threadbind-remove-tail-checks=strategy=split -split-input-file | FileCheck %s
// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover collapse-nests=false" -threadbind-remove-tail-checks=strategy=keep -split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover collapse-nests=false" "-threadbind-remove-tail-checks=strategy=split remarks" -split-input-file -verify-diagnostics -o /dev/null

// 1-D: full blocks (the last thread's start in bounds) run the body with no
// compare against the extent; the last block keeps the check.
// CHECK-LABEL: func.func @copy
// CHECK: %[[N:.*]] = memref.dim
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BDX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: %[[LAST:.*]] = arith.subi %[[BDX]], %c1
// CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %[[BDX]]
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %[[LAST]]
// CHECK: %[[FULL:.*]] = arith.cmpi slt, %[[END]], %[[N]]
// CHECK: scf.if %[[FULL]] {
// CHECK-NOT: arith.cmpi
// CHECK-NOT: scf.if
// CHECK: memref.store
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK: memref.store
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
  // expected-remark @below {{bounds check split: blocks entirely in bounds run a copy without it; only the last block checks}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
  }
  return
}

// -----

// 2-D: two launches, the host choosing (a thread a row where the grid
// covers the rows, a loop over rows where it cannot). In each the check
// sat inside the guard or loop over rows; the whole of it is versioned, so
// full blocks check only the row.
// CHECK-LABEL: func.func @rows
// CHECK: arith.cmpi ule, %{{.*}}, %c65535
// CHECK: gpu.launch
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: scf.if
// CHECK-NOT: scf.if
// CHECK: } else {
// CHECK-NEXT: scf.if
// CHECK: scf.if
// CHECK: gpu.launch
// CHECK: scf.if %{{.*}} {
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

// A static extent that is not a multiple of the block: split.
// CHECK-LABEL: func.func @ragged
// CHECK: scf.if
// CHECK: } else {
func.func @ragged(%a: memref<1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  // expected-remark @below {{bounds check split}}
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
