// Histogram: pixels binned by value with atomics (CUDA histogram256 style).
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

func.func @hist_i32(%img: memref<?x?xi32>, %bins: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %h = memref.dim %img, %c0 : memref<?x?xi32>
  %w = memref.dim %img, %c1 : memref<?x?xi32>
  %nb = memref.dim %bins, %c0 : memref<?xi32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %img[%y, %x] : memref<?x?xi32>
    %vi = arith.index_cast %v : i32 to index
    %b = arith.remui %vi, %nb : index
    %old = memref.atomic_rmw addi %one, %bins[%b] : (i32, memref<?xi32>) -> i32
    scf.reduce
  }
  return
}

// Weighted histogram with float atomics; bin = (v / 3) mod nb.
func.func @hist_f32(%img: memref<?x?xi32>, %wts: memref<?x?xf32>, %bins: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %h = memref.dim %img, %c0 : memref<?x?xi32>
  %w = memref.dim %img, %c1 : memref<?x?xi32>
  %nb = memref.dim %bins, %c0 : memref<?xf32>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %img[%y, %x] : memref<?x?xi32>
    %vi = arith.index_cast %v : i32 to index
    %q = arith.divui %vi, %c3 : index
    %b = arith.remui %q, %nb : index
    %wt = memref.load %wts[%y, %x] : memref<?x?xf32>
    %old = memref.atomic_rmw addf %wt, %bins[%b] : (f32, memref<?xf32>) -> f32
    scf.reduce
  }
  return
}

// 1-D histogram over a flat array, i32 bins via divui of the value range.
func.func @hist_1d(%a: memref<?xi32>, %bins: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  %n = memref.dim %a, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %b = arith.divui %vi, %c8 : index
    %old = memref.atomic_rmw addi %one, %bins[%b] : (i32, memref<?xi32>) -> i32
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c251 = arith.constant 251 : index
  %h = arith.constant 37 : index
  %w = arith.constant 29 : index
  %nb = arith.constant 13 : index
  %img = memref.alloc(%h, %w) : memref<?x?xi32>
  %wts = memref.alloc(%h, %w) : memref<?x?xf32>
  scf.for %i = %c0 to %h step %c1 {
    scf.for %j = %c0 to %w step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %ij = arith.muli %i, %j : index
      %s2 = arith.addi %s, %ij : index
      %r = arith.remui %s2, %c251 : index
      %ri = arith.index_cast %r : index to i32
      memref.store %ri, %img[%i, %j] : memref<?x?xi32>
      %r7 = arith.remui %s, %c7 : index
      %r7i = arith.index_cast %r7 : index to i32
      %f = arith.sitofp %r7i : i32 to f32
      memref.store %f, %wts[%i, %j] : memref<?x?xf32>
    }
  }
  %bins = memref.alloc(%nb) : memref<?xi32>
  %binsf = memref.alloc(%nb) : memref<?xf32>
  %zi = arith.constant 0 : i32
  %zf = arith.constant 0.0 : f32
  scf.for %i = %c0 to %nb step %c1 {
    memref.store %zi, %bins[%i] : memref<?xi32>
    memref.store %zf, %binsf[%i] : memref<?xf32>
  }
  call @hist_i32(%img, %bins) : (memref<?x?xi32>, memref<?xi32>) -> ()
  call @hist_f32(%img, %wts, %binsf) : (memref<?x?xi32>, memref<?x?xf32>, memref<?xf32>) -> ()
  // 1-D: n = 1001 values in [0, 256), 32 bins
  %n = arith.constant 1001 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %c37 = arith.constant 37 : index
  %a1 = memref.alloc(%n) : memref<?xi32>
  %b1 = memref.alloc(%c32) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.muli %i, %c37 : index
    %r = arith.remui %m, %c256 : index
    %ri = arith.index_cast %r : index to i32
    memref.store %ri, %a1[%i] : memref<?xi32>
  }
  scf.for %i = %c0 to %c32 step %c1 {
    memref.store %zi, %b1[%i] : memref<?xi32>
  }
  call @hist_1d(%a1, %b1) : (memref<?xi32>, memref<?xi32>) -> ()
  %u1 = memref.cast %bins : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  %u2 = memref.cast %binsf : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %u3 = memref.cast %b1 : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
  memref.dealloc %img : memref<?x?xi32>
  memref.dealloc %wts : memref<?x?xf32>
  memref.dealloc %bins : memref<?xi32>
  memref.dealloc %binsf : memref<?xf32>
  memref.dealloc %a1 : memref<?xi32>
  memref.dealloc %b1 : memref<?xi32>
  return
}
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
