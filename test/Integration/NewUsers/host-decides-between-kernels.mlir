// Host code between kernels reads device data: a load decides which kernel runs,
// and a reduction result feeds the next kernel as a scalar.
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

func.func private @printMemrefF32(memref<*xf32>)

func.func @fill(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %m7 = arith.remui %s, %c7 : index
      %ii = arith.index_cast %m7 : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @scale(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %k: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %b = arith.mulf %a, %k : f32
    memref.store %b, %B[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @addrow(%B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %B, %c0 : memref<?x?xf32>
  %c = memref.dim %B, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %b = memref.load %B[%i, %j] : memref<?x?xf32>
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %b, %f : f32
    memref.store %s, %B[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @negcol(%B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %B, %c0 : memref<?x?xf32>
  %c = memref.dim %B, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %b = memref.load %B[%i, %j] : memref<?x?xf32>
    %jj = arith.index_cast %j : index to i32
    %f = arith.sitofp %jj : i32 to f32
    %s = arith.subf %f, %b : f32
    memref.store %s, %B[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @total(%A: memref<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  %s = scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) init (%z) -> f32 {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    scf.reduce(%a : f32) {
    ^bb0(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      scf.reduce.return %t : f32
    }
  }
  return %s : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 37 : index
  %c = arith.constant 29 : index
  %two = arith.constant 2.0 : f32
  %five = arith.constant 5.0 : f32
  %A = memref.alloc(%r, %c) : memref<?x?xf32>
  %B = memref.alloc(%r, %c) : memref<?x?xf32>
  call @fill(%A) : (memref<?x?xf32>) -> ()
  call @scale(%A, %B, %two) : (memref<?x?xf32>, memref<?x?xf32>, f32) -> ()
  // host reads one device element
  %x = memref.load %B[%c3, %c4] : memref<?x?xf32>
  %big = arith.cmpf ogt, %x, %five : f32
  scf.if %big {
    func.call @addrow(%B) : (memref<?x?xf32>) -> ()
  } else {
    func.call @negcol(%B) : (memref<?x?xf32>) -> ()
  }
  // second decision on another element, opposite branch expected
  %y = memref.load %B[%c0, %c0] : memref<?x?xf32>
  %big2 = arith.cmpf ogt, %y, %five : f32
  scf.if %big2 {
    func.call @addrow(%B) : (memref<?x?xf32>) -> ()
  } else {
    func.call @negcol(%B) : (memref<?x?xf32>) -> ()
  }
  %cb = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cb) : (memref<*xf32>) -> ()
  // reduction in a function, result used as a kernel parameter
  %s = call @total(%A) : (memref<?x?xf32>) -> f32
  vector.print %s : f32
  // inline reduction in main, scalar reused
  %z = arith.constant 0.0 : f32
  %s2 = scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) init (%z) -> f32 {
    %a = memref.load %B[%i, %j] : memref<?x?xf32>
    scf.reduce(%a : f32) {
    ^bb0(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      scf.reduce.return %t : f32
    }
  }
  vector.print %s2 : f32
  %inv = arith.divf %two, %s : f32
  %k = arith.mulf %s2, %inv : f32
  call @scale(%A, %B, %s2) : (memref<?x?xf32>, memref<?x?xf32>, f32) -> ()
  %m = arith.constant 1.0e-3 : f32
  %km = arith.mulf %k, %m : f32
  vector.print %km : f32
  %v = memref.load %B[%c3, %c4] : memref<?x?xf32>
  vector.print %v : f32
  %cb2 = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cb2) : (memref<*xf32>) -> ()
  // 1x1 and 0xN sizes through the reduction
  %E = memref.alloc(%c0, %c) : memref<?x?xf32>
  %se = call @total(%E) : (memref<?x?xf32>) -> f32
  vector.print %se : f32
  %O = memref.alloc(%c1, %c1) : memref<?x?xf32>
  call @fill(%O) : (memref<?x?xf32>) -> ()
  %one = arith.constant 1.0 : f32
  %O2 = memref.alloc(%c1, %c1) : memref<?x?xf32>
  call @scale(%O, %O2, %one) : (memref<?x?xf32>, memref<?x?xf32>, f32) -> ()
  call @negcol(%O2) : (memref<?x?xf32>) -> ()
  %so = call @total(%O2) : (memref<?x?xf32>) -> f32
  vector.print %so : f32
  return
}
