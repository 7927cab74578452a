// Marks ThreadBind's passes leave for each other are removed from the
// input, each with a warning; user-facing ones (threadbind.tail,
// threadbind.padded_to) stay.
// RUN: threadbind-opt %s -threadbind-strip-internal-marks -verify-diagnostics | FileCheck %s
// The pipelines strip them first, so a hand-written guard claiming to be a
// cover launch's check is never split.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-remove-tail-checks=strategy=split 2>&1 | FileCheck %s --check-prefix=PIPELINE

// CHECK-LABEL: func.func @marked
// CHECK-SAME: threadbind.padded_to = 64
// CHECK-NOT: threadbind.tail_guard
// CHECK-NOT: threadbind.grid_policy
// CHECK-NOT: threadbind.unswitch_rejected
// CHECK-NOT: threadbind.stencil_choice
// CHECK: threadbind.tail = "keep"
// PIPELINE: warning: ignored 'threadbind.tail_guard'
// PIPELINE: warning: ignored 'threadbind.grid_policy'
// PIPELINE-LABEL: func.func @marked
// PIPELINE: %[[P:.*]] = arith.cmpi sgt
// PIPELINE-NEXT: scf.if %[[P]] {
// PIPELINE-NOT: else
func.func @marked(%a: memref<16xi32> {threadbind.padded_to = 64}, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  // expected-warning @below {{ignored 'threadbind.grid_policy': ThreadBind's passes set it for each other, and do not take it from their input}}
  // expected-warning @below {{ignored 'threadbind.stencil_choice'}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %p = arith.cmpi sgt, %tx, %c3 : index
    // expected-warning @below {{ignored 'threadbind.tail_guard'}}
    scf.if %p {
      memref.store %one, %a[%i] : memref<16xi32>
    } {threadbind.tail_guard}
    // expected-warning @below {{ignored 'threadbind.unswitch_rejected'}}
    scf.if %p {
      memref.store %one, %a[%i] : memref<16xi32>
    } {threadbind.unswitch_rejected}
    gpu.terminator
  } {threadbind.grid_policy = "grid-stride", threadbind.stencil_choice}
  %n = memref.dim %b, %c0 : memref<?xf32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %x = memref.load %b[%j] : memref<?xf32>
    memref.store %x, %b[%j] : memref<?xf32>
  } {threadbind.tail = "keep"}
  return
}
