// Calls in parallel loop bodies are replaced by their callees' bodies,
// helpers of helpers too; calls in host code, to declarations and to
// functions that call themselves stay. Then the mapped loops, run by the
// CPU emulation, print what the loops as written print.
// RUN: threadbind-opt %s -lower-affine -threadbind-inline-loop-calls | FileCheck %s
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped

// A helper stays for its other callers (@square for @host_call); one that
// only loops called (@poly, @cube and @twice, which only @cube calls) goes
// once inlined, so it is not left behind as host code.
// CHECK-NOT: @poly(
// CHECK-NOT: @cube(
// CHECK-NOT: @twice(
// CHECK-LABEL: func.func private @square
// CHECK-NOT: @poly(
// CHECK-NOT: @cube(
// CHECK-NOT: @twice(
// CHECK-LABEL: func.func @apply

func.func private @square(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}

// x^2 + x, through another helper.
func.func private @poly(%x: f32) -> f32 {
  %s = func.call @square(%x) : (f32) -> f32
  %y = arith.addf %s, %x : f32
  return %y : f32
}

// 2 x^3, through a helper only it calls.
func.func private @twice(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}

func.func private @cube(%x: f32) -> f32 {
  %s = arith.mulf %x, %x : f32
  %c = arith.mulf %s, %x : f32
  %t = func.call @twice(%c) : (f32) -> f32
  return %t : f32
}

// CHECK: scf.parallel
// CHECK-NOT: call
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: scf.reduce
func.func @apply(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = func.call @poly(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// CHECK-LABEL: func.func @cubes
// CHECK-NOT: call
func.func @cubes(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = func.call @cube(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// In an scf.forall and an affine.parallel (lowered to scf.parallel first,
// as the pipelines do) too.
// CHECK-LABEL: func.func @forall_and_affine
// CHECK: scf.forall
// CHECK-NOT: call
// CHECK: scf.parallel
// CHECK-NOT: call
// CHECK: return
func.func @forall_and_affine(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  scf.forall (%i) in (%n) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = func.call @square(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  affine.parallel (%i) = (0) to (symbol(%n)) {
    %x = affine.load %b[%i] : memref<?xf32>
    %y = func.call @poly(%x) : (f32) -> f32
    affine.store %y, %b[%i] : memref<?xf32>
  }
  return
}

// A call outside any loop is the host's own: it stays.
// CHECK-LABEL: func.func @host_call
// CHECK: call @square
func.func @host_call(%x: f32) -> f32 {
  %y = func.call @square(%x) : (f32) -> f32
  return %y : f32
}

// A helper with an early return has several blocks, which a loop's body
// cannot hold: it is inlined into an scf.execute_region that yields the
// call's result (before, the blocks landed in the scf.parallel and the IR
// failed to verify).
// CHECK-LABEL: func.func @clamp_negative
// CHECK: scf.parallel
// CHECK: %[[R:.*]] = scf.execute_region -> f32 {
// CHECK: cf.cond_br
// CHECK: cf.br ^[[JOIN:bb[0-9]+]](
// CHECK: cf.br ^[[JOIN]](
// CHECK: ^[[JOIN]](%[[V:.*]]: f32):
// CHECK-NEXT: scf.yield %[[V]] : f32
// CHECK: memref.store %[[R]]
// CHECK-NOT: call
// CHECK: return
func.func private @zero_if_negative(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %neg = arith.cmpf olt, %x, %z : f32
  cf.cond_br %neg, ^zero, ^keep
^zero:
  return %z : f32
^keep:
  %y = arith.addf %x, %x : f32
  return %y : f32
}

func.func @clamp_negative(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %e = func.call @zero_if_negative(%v) : (f32) -> f32
    memref.store %e, %a[%i] : memref<?xf32>
  }
  return
}

// OUT: 6
// OUT-NEXT: 4
// OUT-NEXT: 12
// OUT-NEXT: 9
// OUT-NEXT: 54
// OUT-NEXT: 0
// OUT-NEXT: 2
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %three = arith.constant 3.0 : f32
  %a = memref.alloc(%c4) : memref<?xf32>
  %b = memref.alloc(%c4) : memref<?xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %a[%i] : memref<?xf32>
    memref.store %f, %b[%i] : memref<?xf32>
  }
  // a[2] = 2^2 + 2 = 6
  call @apply(%a, %c4) : (memref<?xf32>, index) -> ()
  %r0 = memref.load %a[%c2] : memref<?xf32>
  vector.print %r0 : f32
  // a[1] = (1^2 + 1)^2 = 4; b[3] = 3^2 + 3 = 12
  call @forall_and_affine(%a, %b, %c4) : (memref<?xf32>, memref<?xf32>, index) -> ()
  %r1 = memref.load %a[%c1] : memref<?xf32>
  vector.print %r1 : f32
  %c3 = arith.constant 3 : index
  %r2 = memref.load %b[%c3] : memref<?xf32>
  vector.print %r2 : f32
  %h = call @host_call(%three) : (f32) -> f32
  vector.print %h : f32
  // b[3] = 2 * 3^3 = 54
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %b[%i] : memref<?xf32>
  }
  call @cubes(%b, %c4) : (memref<?xf32>, index) -> ()
  %r3 = memref.load %b[%c3] : memref<?xf32>
  vector.print %r3 : f32
  // b = [-3, -2, -1, 0] -> [0, 0, 0, 0]; b[1] = 1 -> 2
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.subf %f, %three : f32
    memref.store %g, %b[%i] : memref<?xf32>
  }
  %one = arith.constant 1.0 : f32
  memref.store %one, %b[%c1] : memref<?xf32>
  call @clamp_negative(%b, %c4) : (memref<?xf32>, index) -> ()
  %r4 = memref.load %b[%c0] : memref<?xf32>
  vector.print %r4 : f32
  %r5 = memref.load %b[%c1] : memref<?xf32>
  vector.print %r5 : f32
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
