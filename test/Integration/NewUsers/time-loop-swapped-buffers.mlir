// Jacobi-1d with a time loop that swaps its buffers through iter_args (PolyBench style, host loop around the kernel).
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

func.func @jacobi(%A: memref<?xf32>, %B: memref<?xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  %nm = arith.subi %n, %c1 : index
  %half = arith.constant 0.5 : f32
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%a = %A, %b = %B) -> (memref<?xf32>, memref<?xf32>) {
    scf.parallel (%i) = (%c1) to (%nm) step (%c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %l = memref.load %a[%im] : memref<?xf32>
      %r = memref.load %a[%ip] : memref<?xf32>
      %s = arith.addf %l, %r : f32
      %v = arith.mulf %s, %half : f32
      memref.store %v, %b[%i] : memref<?xf32>
      scf.reduce
    }
    scf.yield %b, %a : memref<?xf32>, memref<?xf32>
  }
  return
}

// 2-D variant: 5-point sum (integer-valued, exact), parity-chosen swap with arith.select on memrefs.
func.func @heat2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  %hm = arith.subi %h, %c1 : index
  %wm = arith.subi %w, %c1 : index
  %c8 = arith.constant 8.0 : f32
  scf.for %t = %c0 to %steps step %c1 {
    %p = arith.remui %t, %c2 : index
    %even = arith.cmpi eq, %p, %c0 : index
    %src = arith.select %even, %A, %B : memref<?x?xf32>
    %dst = arith.select %even, %B, %A : memref<?x?xf32>
    scf.parallel (%i, %j) = (%c1, %c1) to (%hm, %wm) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %x0 = memref.load %src[%i, %j] : memref<?x?xf32>
      %x1 = memref.load %src[%im, %j] : memref<?x?xf32>
      %x2 = memref.load %src[%ip, %j] : memref<?x?xf32>
      %x3 = memref.load %src[%i, %jm] : memref<?x?xf32>
      %x4 = memref.load %src[%i, %jp] : memref<?x?xf32>
      %s1 = arith.addf %x1, %x2 : f32
      %s2 = arith.addf %x3, %x4 : f32
      %s3 = arith.addf %s1, %s2 : f32
      %s4 = arith.subf %s3, %x0 : f32
      // keep values small and exact: remainder mod 8
      %s5 = arith.remf %s4, %c8 : f32
      memref.store %s5, %dst[%i, %j] : memref<?x?xf32>
      scf.reduce
    }
  }
  return
}

func.func @fill1(%A: memref<?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c3 : index
    %r = arith.remui %a, %m : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %g = arith.mulf %f, %f : f32
    memref.store %g, %A[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %n = arith.constant 41 : index
  %A = memref.alloc(%n) : memref<?xf32>
  %B = memref.alloc(%n) : memref<?xf32>
  call @fill1(%A, %c7) : (memref<?xf32>, index) -> ()
  call @fill1(%B, %c5) : (memref<?xf32>, index) -> ()
  %steps = arith.constant 5 : index
  call @jacobi(%A, %B, %steps) : (memref<?xf32>, memref<?xf32>, index) -> ()
  %uA = memref.cast %A : memref<?xf32> to memref<*xf32>
  %uB = memref.cast %B : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uA) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uB) : (memref<*xf32>) -> ()
  // tiny: n = 1 (no interior), and n = 3
  %A1 = memref.alloc(%c1) : memref<?xf32>
  %B1 = memref.alloc(%c1) : memref<?xf32>
  call @fill1(%A1, %c7) : (memref<?xf32>, index) -> ()
  call @fill1(%B1, %c5) : (memref<?xf32>, index) -> ()
  call @jacobi(%A1, %B1, %steps) : (memref<?xf32>, memref<?xf32>, index) -> ()
  %uA1 = memref.cast %A1 : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uA1) : (memref<*xf32>) -> ()
  // 2-D 37x29, 7 steps (odd: result ends in B)
  %h = arith.constant 37 : index
  %w = arith.constant 29 : index
  %P = memref.alloc(%h, %w) : memref<?x?xf32>
  %Q = memref.alloc(%h, %w) : memref<?x?xf32>
  scf.for %i = %c0 to %h step %c1 {
    scf.for %j = %c0 to %w step %c1 {
      %a = arith.muli %i, %c7 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c11 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      memref.store %f, %P[%i, %j] : memref<?x?xf32>
      %r2 = arith.remui %s, %c7 : index
      %ri2 = arith.index_cast %r2 : index to i32
      %f2 = arith.sitofp %ri2 : i32 to f32
      memref.store %f2, %Q[%i, %j] : memref<?x?xf32>
    }
  }
  %s7 = arith.constant 7 : index
  call @heat2d(%P, %Q, %s7) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  %uP = memref.cast %P : memref<?x?xf32> to memref<*xf32>
  %uQ = memref.cast %Q : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%uP) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uQ) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<?xf32>
  memref.dealloc %B : memref<?xf32>
  memref.dealloc %A1 : memref<?xf32>
  memref.dealloc %B1 : memref<?xf32>
  memref.dealloc %P : memref<?x?xf32>
  memref.dealloc %Q : memref<?x?xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
