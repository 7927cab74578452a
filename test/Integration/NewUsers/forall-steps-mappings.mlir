// scf.forall on memrefs: strided 2-D update of interior points, plus a 1-D forall
// carrying a gpu mapping attribute copied from a tensor example.
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

func.func @forall_2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  %hm = arith.subi %h, %c1 : index
  // rows 1, 3, 5, ... < h-1 ; columns 2, 5, 8, ... < w
  scf.forall (%i, %j) = (%c1, %c2) to (%hm, %w) step (%c2, %c3) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %ip = arith.addi %i, %c1 : index
    %im = arith.subi %i, %c1 : index
    %up = memref.load %A[%im, %j] : memref<?x?xf32>
    %dn = memref.load %A[%ip, %j] : memref<?x?xf32>
    %s = arith.addf %up, %dn : f32
    %t = arith.subf %s, %a : f32
    memref.store %t, %B[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @forall_mapped(%x: memref<?xf32>, %y: memref<?xf32>, %alpha: f32) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.forall (%i) = (%c5) to (%n) step (%c5) {
    %a = memref.load %x[%i] : memref<?xf32>
    %b = memref.load %y[%i] : memref<?xf32>
    %m = arith.mulf %alpha, %a : f32
    %r = arith.addf %m, %b : f32
    memref.store %r, %y[%i] : memref<?xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// forall with normalized form (upper bounds only), 2-D with block mapping.
func.func @forall_blocks(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  %two = arith.constant 2.0 : f32
  scf.forall (%i, %j) in (%h, %w) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %r = arith.mulf %a, %two : f32
    memref.store %r, %A[%i, %j] : memref<?x?xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

func.func @fill2(%A: memref<?x?xf32>, %m: index, %off: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %h step %c1 {
    scf.for %j = %c0 to %w step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %m : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      %g = arith.subf %f, %off : f32
      memref.store %g, %A[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c5 = arith.constant 5 : index
  %h = arith.constant 37 : index
  %w = arith.constant 29 : index
  %z = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %A = memref.alloc(%h, %w) : memref<?x?xf32>
  %B = memref.alloc(%h, %w) : memref<?x?xf32>
  call @fill2(%A, %c7, %three) : (memref<?x?xf32>, index, f32) -> ()
  call @fill2(%B, %c5, %z) : (memref<?x?xf32>, index, f32) -> ()
  call @forall_2d(%A, %B) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %uB = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%uB) : (memref<*xf32>) -> ()
  // 1-D
  %n = arith.constant 103 : index
  %X = memref.alloc(%c1, %n) : memref<?x?xf32>
  %Y = memref.alloc(%c1, %n) : memref<?x?xf32>
  call @fill2(%X, %c7, %z) : (memref<?x?xf32>, index, f32) -> ()
  call @fill2(%Y, %c5, %three) : (memref<?x?xf32>, index, f32) -> ()
  %x1 = memref.collapse_shape %X [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %y1 = memref.collapse_shape %Y [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %alpha = arith.constant 2.0 : f32
  call @forall_mapped(%x1, %y1, %alpha) : (memref<?xf32>, memref<?xf32>, f32) -> ()
  %uY = memref.cast %y1 : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uY) : (memref<*xf32>) -> ()
  // block-mapped on a 1 x 29 and a 0 x 5
  %C = memref.alloc(%c1, %w) : memref<?x?xf32>
  call @fill2(%C, %c7, %three) : (memref<?x?xf32>, index, f32) -> ()
  call @forall_blocks(%C) : (memref<?x?xf32>) -> ()
  %D = memref.alloc(%c0, %c5) : memref<?x?xf32>
  call @forall_blocks(%D) : (memref<?x?xf32>) -> ()
  %uC = memref.cast %C : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%uC) : (memref<*xf32>) -> ()
  %dd = memref.dim %D, %c0 : memref<?x?xf32>
  vector.print %dd : index
  memref.dealloc %A : memref<?x?xf32>
  memref.dealloc %B : memref<?x?xf32>
  memref.dealloc %X : memref<?x?xf32>
  memref.dealloc %Y : memref<?x?xf32>
  memref.dealloc %C : memref<?x?xf32>
  memref.dealloc %D : memref<?x?xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
