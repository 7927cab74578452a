// Helpers with early return (multi-block CFG), a scratch alloca, and one shared by host and kernel.
// From the new-user rounds of 2026-11-29: a program in a form the other
// tests did not cover, written as someone new to ThreadBind writes it.
// Checked in CPU emulation against the original, as threadbind-compile
// binds it under the defaults, a cover grid of 64-thread blocks with split
// tails, and a 3-D block shape of at most 3 blocks with kept tails and
// unrolled widening; its kernels assembled by ptxas.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// RUN: threadbind-compile --emit=mlir %s -o %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-compile --emit=mlir --grid-policy=cover --threads-per-block=64 --tail=split %s -o %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile --emit=mlir --block-shape=8,4,2 --max-blocks=3 --tail=keep --widen-unroll=2 %s -o %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: %if ptxas %{ threadbind-compile --emit=cubin %s -o %t.cubin %}
// REF: {{[0-9]}}

func.func private @early(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %neg = arith.cmpf olt, %x, %z : f32
  cf.cond_br %neg, ^ret0, ^work
^ret0:
  return %z : f32
^work:
  %two = arith.constant 2.0 : f32
  %y = arith.mulf %x, %two : f32
  return %y : f32
}

func.func @sum3(%a: memref<?xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %buf = memref.alloca() : memref<3xf32>
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.for %k = %c0 to %c3 step %c1 {
    %ik = arith.addi %i, %k : index
    %m = arith.remui %ik, %n : index
    %v = memref.load %a[%m] : memref<?xf32>
    memref.store %v, %buf[%k] : memref<3xf32>
  }
  %x = memref.load %buf[%c0] : memref<3xf32>
  %y = memref.load %buf[%c1] : memref<3xf32>
  %w = memref.load %buf[%c2] : memref<3xf32>
  %s = arith.addf %x, %y : f32
  %t = arith.addf %s, %w : f32
  return %t : f32
}

func.func @kernel(%a: memref<?xf32>, %o: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %s = func.call @sum3(%a, %i) : (memref<?xf32>, index) -> f32
    %e = func.call @early(%s) : (f32) -> f32
    memref.store %e, %o[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %n = arith.constant 53 : index
  %three = arith.constant 3.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.muli %i, %c5 : index
    %r = arith.remui %m, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %g = arith.subf %f, %three : f32
    memref.store %g, %a[%i] : memref<?xf32>
  }
  %o = memref.alloc(%n) : memref<?xf32>
  call @kernel(%a, %o) : (memref<?xf32>, memref<?xf32>) -> ()
  %uo = memref.cast %o : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
  // host-side use of the same helper
  %h = call @sum3(%a, %c5) : (memref<?xf32>, index) -> f32
  vector.print %h : f32
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %o : memref<?xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
