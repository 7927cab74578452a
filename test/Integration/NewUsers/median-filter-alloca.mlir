// Median filter 3x3: per-iteration scratch memref.alloca, bubble sort by nested scf.for.
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

func.func @median3x3(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %r = memref.dim %src, %c0 : memref<?x?xf32>
  %c = memref.dim %src, %c1 : memref<?x?xf32>
  %lr = arith.subi %r, %c1 : index
  %lc = arith.subi %c, %c1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %win = memref.alloca() : memref<9xf32>
    // copy the clamped 3x3 window
    scf.for %di = %c0 to %c3 step %c1 {
      scf.for %dj = %c0 to %c3 step %c1 {
        %ii0 = arith.addi %i, %di : index
        %ii1 = arith.subi %ii0, %c1 : index
        %ii2 = arith.maxsi %ii1, %c0 : index
        %ii = arith.minsi %ii2, %lr : index
        %jj0 = arith.addi %j, %dj : index
        %jj1 = arith.subi %jj0, %c1 : index
        %jj2 = arith.maxsi %jj1, %c0 : index
        %jj = arith.minsi %jj2, %lc : index
        %v = memref.load %src[%ii, %jj] : memref<?x?xf32>
        %k0 = arith.muli %di, %c3 : index
        %k = arith.addi %k0, %dj : index
        memref.store %v, %win[%k] : memref<9xf32>
      }
    }
    // bubble sort
    scf.for %p = %c0 to %c8 step %c1 {
      %lim = arith.subi %c8, %p : index
      scf.for %q = %c0 to %lim step %c1 {
        %q1 = arith.addi %q, %c1 : index
        %a = memref.load %win[%q] : memref<9xf32>
        %b = memref.load %win[%q1] : memref<9xf32>
        %gt = arith.cmpf ogt, %a, %b : f32
        scf.if %gt {
          memref.store %b, %win[%q] : memref<9xf32>
          memref.store %a, %win[%q1] : memref<9xf32>
        }
      }
    }
    %med = memref.load %win[%c4] : memref<9xf32>
    // encode position of min and max too, to make sure the whole sort is right
    %mn = memref.load %win[%c0] : memref<9xf32>
    %mx = memref.load %win[%c8] : memref<9xf32>
    %ten = arith.constant 10.0 : f32
    %hund = arith.constant 100.0 : f32
    %t1 = arith.mulf %mx, %hund : f32
    %t2 = arith.mulf %med, %ten : f32
    %t3 = arith.addf %t1, %t2 : f32
    %t4 = arith.addf %t3, %mn : f32
    memref.store %t4, %dst[%i, %j] : memref<?x?xf32>
  }
  return
}

// same filter with a dynamically sized alloca, scf.forall flavor
func.func @median_dyn(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %src, %c0 : memref<?x?xf32>
  %c = memref.dim %src, %c1 : memref<?x?xf32>
  %lc = arith.subi %c, %c1 : index
  %half = arith.divui %n, %c1 : index
  %nm1 = arith.subi %n, %c1 : index
  %mid = arith.divui %nm1, %c1 : index
  scf.forall (%i, %j) in (%r, %c) {
    %win = memref.alloca(%n) : memref<?xf32>
    // 1-D horizontal window of n, centered-left
    scf.for %d = %c0 to %n step %c1 {
      %jj0 = arith.addi %j, %d : index
      %jj = arith.minsi %jj0, %lc : index
      %v = memref.load %src[%i, %jj] : memref<?x?xf32>
      memref.store %v, %win[%d] : memref<?xf32>
    }
    scf.for %p = %c0 to %nm1 step %c1 {
      %lim = arith.subi %nm1, %p : index
      scf.for %q = %c0 to %lim step %c1 {
        %q1 = arith.addi %q, %c1 : index
        %a = memref.load %win[%q] : memref<?xf32>
        %b = memref.load %win[%q1] : memref<?xf32>
        %lo = arith.minimumf %a, %b : f32
        %hi = arith.maximumf %a, %b : f32
        memref.store %lo, %win[%q] : memref<?xf32>
        memref.store %hi, %win[%q1] : memref<?xf32>
      }
    }
    %two = arith.constant 2 : index
    %m = arith.divui %n, %two : index
    %med = memref.load %win[%m] : memref<?xf32>
    memref.store %med, %dst[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = arith.constant 37 : index
  %c = arith.constant 29 : index
  %A = memref.alloc(%r, %c) : memref<?x?xf32>
  %B = memref.alloc(%r, %c) : memref<?x?xf32>
  call @fill(%A) : (memref<?x?xf32>) -> ()
  call @median3x3(%A, %B) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %cb = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cb) : (memref<*xf32>) -> ()
  call @median_dyn(%A, %B, %c5) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  call @printMemrefF32(%cb) : (memref<*xf32>) -> ()
  // single pixel, and a 1x0 image
  %P = memref.alloc(%c1, %c1) : memref<?x?xf32>
  %Q = memref.alloc(%c1, %c1) : memref<?x?xf32>
  call @fill(%P) : (memref<?x?xf32>) -> ()
  call @median3x3(%P, %Q) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %cq = memref.cast %Q : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%cq) : (memref<*xf32>) -> ()
  %E = memref.alloc(%c1, %c0) : memref<?x?xf32>
  %F = memref.alloc(%c1, %c0) : memref<?x?xf32>
  call @median3x3(%E, %F) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @median_dyn(%E, %F, %c5) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  // (printMemref of a 0-extent memref prints a garbage element; print Q again instead)
  call @printMemrefF32(%cq) : (memref<*xf32>) -> ()
  return
}
