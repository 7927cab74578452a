// Names and signatures: quoted names, @main_kernel, calls between loop functions,
// a function returning a fresh memref, an i1 flag with index arguments.
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

func.func @"my kernel.v2"(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %b = arith.addf %a, %a : f32
    memref.store %b, %B[%i, %j] : memref<?x?xf32>
  }
  return
}

// a user function whose name collides with outlining's naming scheme
func.func @main_kernel(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %b = arith.addf %a, %one : f32
    memref.store %b, %A[%i, %j] : memref<?x?xf32>
  }
  return
}

// another collision candidate: the outlined kernel of @"my kernel.v2" might be named this
func.func @"my kernel.v2_kernel"(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %b = arith.mulf %a, %three : f32
    memref.store %b, %A[%i, %j] : memref<?x?xf32>
  }
  return
}

// row helper with its own loop; called from inside a parallel loop
func.func @rowop(%A: memref<?x?xf32>, %i: index, %k: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  scf.for %j = %c0 to %c step %c1 {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %b = arith.mulf %a, %k : f32
    memref.store %b, %A[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @rows(%A: memref<?x?xf32>, %k: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    func.call @rowop(%A, %i, %k) : (memref<?x?xf32>, index, f32) -> ()
  }
  return
}

// a function with a parallel loop calling a function with a parallel loop
func.func @outer(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %A, %c0 : memref<?x?xf32>
  %c = memref.dim %A, %c1 : memref<?x?xf32>
  call @"my kernel.v2"(%A, %B) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %a = memref.load %A[%i, %j] : memref<?x?xf32>
    %b = memref.load %B[%i, %j] : memref<?x?xf32>
    %s = arith.subf %b, %a : f32
    memref.store %s, %A[%i, %j] : memref<?x?xf32>
  }
  call @main_kernel(%A) : (memref<?x?xf32>) -> ()
  return
}

// returns a freshly allocated memref
func.func @make(%r: index, %c: index, %A: memref<?x?xf32>) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %M = memref.alloc(%c, %r) : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c, %r) step (%c1, %c1) {
    %a = memref.load %A[%j, %i] : memref<?x?xf32>
    memref.store %a, %M[%i, %j] : memref<?x?xf32>
  }
  return %M : memref<?x?xf32>
}

// i1 flag and index arguments, mixed order
func.func @flagged(%flag: i1, %A: memref<?x?xf32>, %r0: index, %r1: index, %neg: i1, %col: index) {
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%r0) to (%r1) step (%c1) {
    %a = memref.load %A[%i, %col] : memref<?x?xf32>
    %v = scf.if %flag -> f32 {
      %t = arith.negf %a : f32
      scf.yield %t : f32
    } else {
      %t = arith.addf %a, %a : f32
      scf.yield %t : f32
    }
    %w = arith.select %neg, %a, %v : f32
    memref.store %w, %A[%i, %col] : memref<?x?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c30 = arith.constant 30 : index
  %r = arith.constant 37 : index
  %c = arith.constant 29 : index
  %true = arith.constant true
  %false = arith.constant false
  %A = memref.alloc(%r, %c) : memref<?x?xf32>
  %B = memref.alloc(%r, %c) : memref<?x?xf32>
  call @fill(%A) : (memref<?x?xf32>) -> ()
  call @outer(%A, %B) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @"my kernel.v2_kernel"(%A) : (memref<?x?xf32>) -> ()
  %two = arith.constant 2.0 : f32
  call @rows(%A, %two) : (memref<?x?xf32>, f32) -> ()
  call @flagged(%true, %A, %c2, %c30, %false, %c5) : (i1, memref<?x?xf32>, index, index, i1, index) -> ()
  call @flagged(%false, %A, %c0, %c30, %false, %c0) : (i1, memref<?x?xf32>, index, index, i1, index) -> ()
  call @flagged(%true, %A, %c0, %r, %true, %c1) : (i1, memref<?x?xf32>, index, index, i1, index) -> ()
  call @flagged(%true, %A, %c30, %c2, %false, %c1) : (i1, memref<?x?xf32>, index, index, i1, index) -> ()
  %cA = memref.cast %A : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cA) : (memref<*xf32>) -> ()
  %T = call @make(%r, %c, %A) : (index, index, memref<?x?xf32>) -> memref<?x?xf32>
  %cT = memref.cast %T : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cT) : (memref<*xf32>) -> ()
  %T1 = call @make(%c1, %c1, %A) : (index, index, memref<?x?xf32>) -> memref<?x?xf32>
  %cT1 = memref.cast %T1 : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cT1) : (memref<*xf32>) -> ()
  memref.dealloc %T : memref<?x?xf32>
  memref.dealloc %T1 : memref<?x?xf32>
  return
}
