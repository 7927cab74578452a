// Run-time ranges: inverted, empty, non-unit and huge steps, negative lower bounds.
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

func.func @zero(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant -1.0 : f32
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %z, %m[%i] : memref<?xf32>
  }
  return
}

// out[i] = i + tag for i in [lb, ub) step s
func.func @stepper(%out: memref<?xf32>, %lb: index, %ub: index, %s: index, %tag: f32) {
  scf.parallel (%i) = (%lb) to (%ub) step (%s) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.addf %f, %tag : f32
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}

// negative lower bound, shifted back into range: i in [lb, ub) writes out[i - lb]
func.func @shifted(%out: memref<?xf32>, %lb: index, %ub: index, %s: index) {
  %c0 = arith.constant 0 : index
  scf.parallel (%i) = (%lb) to (%ub) step (%s) {
    %k = arith.subi %i, %lb : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %out[%k] : memref<?xf32>
  }
  return
}

// 2-D with independent dynamic steps and offsets; one dim may be empty
func.func @grid2(%out: memref<?x?xf32>, %l0: index, %u0: index, %s0: index, %l1: index, %u1: index, %s1: index) {
  scf.parallel (%i, %j) = (%l0, %l1) to (%u0, %u1) step (%s0, %s1) {
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %a = arith.sitofp %ii : i32 to f32
    %b = arith.sitofp %jj : i32 to f32
    %h = arith.constant 100.0 : f32
    %x = arith.mulf %a, %h : f32
    %y = arith.addf %x, %b : f32
    memref.store %y, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

// forall with dynamic lb/ub/step, including negative lower bound
func.func @fa(%out: memref<?xf32>, %lb: index, %ub: index, %s: index, %off: index) {
  scf.forall (%i) = (%lb) to (%ub) step (%s) {
    %k = arith.addi %i, %off : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %out[%k] : memref<?xf32>
  }
  return
}

// affine.parallel with symbolic bounds and a step, negative shift
func.func @ap(%out: memref<?xf32>, %lb: index, %ub: index) {
  affine.parallel (%i) = (%lb) to (%ub) step (3) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.store %f, %out[%i - symbol(%lb)] : memref<?xf32>
  }
  return
}

// reduction over a run-time range (empty ranges must give the init)
func.func @rsum(%lb: index, %ub: index, %s: index) -> f32 {
  %init = arith.constant 0.5 : f32
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%init) -> f32 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    scf.reduce(%f : f32) {
    ^bb0(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      scf.reduce.return %t : f32
    }
  }
  return %r : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c37 = arith.constant 37 : index
  %c29 = arith.constant 29 : index
  %c90 = arith.constant 90 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %big = arith.constant 4611686018427387904 : index
  %m10 = arith.constant -10 : index
  %m7 = arith.constant -7 : index
  %m37 = arith.constant -37 : index
  %t0 = arith.constant 0.0 : f32
  %t1 = arith.constant 1000.0 : f32
  %t2 = arith.constant 2000.0 : f32
  %t3 = arith.constant 3000.0 : f32
  %t4 = arith.constant 4000.0 : f32
  %t5 = arith.constant 5000.0 : f32
  %A = memref.alloc(%c100) : memref<?xf32>
  %cA = memref.cast %A : memref<?xf32> to memref<*xf32>
  call @zero(%A) : (memref<?xf32>) -> ()
  // inverted: 5 .. 3
  call @stepper(%A, %c5, %c3, %c1, %t1) : (memref<?xf32>, index, index, index, f32) -> ()
  // empty: 0 .. 0
  call @stepper(%A, %c0, %c0, %c1, %t1) : (memref<?xf32>, index, index, index, f32) -> ()
  // step 7 over 100
  call @stepper(%A, %c0, %c100, %c7, %t2) : (memref<?xf32>, index, index, index, f32) -> ()
  // step bigger than the extent (only i = 3)
  call @stepper(%A, %c3, %c100, %c200, %t3) : (memref<?xf32>, index, index, index, f32) -> ()
  // huge step (2^62), only i = 5
  call @stepper(%A, %c5, %c100, %big, %t4) : (memref<?xf32>, index, index, index, f32) -> ()
  call @printMemrefF32(%cA) : (memref<*xf32>) -> ()
  call @zero(%A) : (memref<?xf32>) -> ()
  // negative lb: -10 .. 90 step 3 -> out[0..99]
  call @shifted(%A, %m10, %c90, %c3) : (memref<?xf32>, index, index, index) -> ()
  // negative lb with step 7, ending at 0
  call @shifted(%A, %m37, %c0, %c7) : (memref<?xf32>, index, index, index) -> ()
  call @printMemrefF32(%cA) : (memref<*xf32>) -> ()
  call @zero(%A) : (memref<?xf32>) -> ()
  call @fa(%A, %m10, %c90, %c7, %c10) : (memref<?xf32>, index, index, index, index) -> ()
  call @fa(%A, %c90, %m10, %c1, %c10) : (memref<?xf32>, index, index, index, index) -> ()
  call @printMemrefF32(%cA) : (memref<*xf32>) -> ()
  call @zero(%A) : (memref<?xf32>) -> ()
  call @ap(%A, %m37, %c29) : (memref<?xf32>, index, index) -> ()
  call @ap(%A, %c29, %m37) : (memref<?xf32>, index, index) -> ()
  call @printMemrefF32(%cA) : (memref<*xf32>) -> ()
  // 2-D
  %G = memref.alloc(%c37, %c29) : memref<?x?xf32>
  %c0f = arith.constant 0.0 : f32
  linalg.fill ins(%c0f : f32) outs(%G : memref<?x?xf32>)
  call @grid2(%G, %c1, %c37, %c5, %c0, %c29, %c3) : (memref<?x?xf32>, index, index, index, index, index, index) -> ()
  // one dimension inverted: nothing written
  call @grid2(%G, %c0, %c37, %c1, %c29, %c0, %c1) : (memref<?x?xf32>, index, index, index, index, index, index) -> ()
  // one dimension empty, other huge step
  call @grid2(%G, %c3, %c3, %c1, %c0, %c29, %big) : (memref<?x?xf32>, index, index, index, index, index, index) -> ()
  // one row only with step bigger than extent
  call @grid2(%G, %c10, %c37, %c100, %c1, %c29, %c1) : (memref<?x?xf32>, index, index, index, index, index, index) -> ()
  %cG = memref.cast %G : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cG) : (memref<*xf32>) -> ()
  // reductions over run-time ranges
  %r1 = call @rsum(%c5, %c3, %c1) : (index, index, index) -> f32
  vector.print %r1 : f32
  %r2 = call @rsum(%m10, %c90, %c7) : (index, index, index) -> f32
  vector.print %r2 : f32
  %r3 = call @rsum(%c3, %c100, %big) : (index, index, index) -> f32
  vector.print %r3 : f32
  %r4 = call @rsum(%c0, %c0, %c1) : (index, index, index) -> f32
  vector.print %r4 : f32
  return
}
