// affine.parallel reductions (sum, max) and tiled affine loops with min/max bounds.
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

#tile_hi = affine_map<(d0)[s0] -> (d0 + 16, s0)>
func.func @row_sum_max(%A: memref<?x?xf32>, %sum: memref<?xf32>, %mx: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  affine.parallel (%i) = (0) to (symbol(%h)) {
    %s = affine.parallel (%j) = (0) to (symbol(%w)) reduce ("addf") -> f32 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.yield %v : f32
    }
    affine.store %s, %sum[%i] : memref<?xf32>
    %m = affine.parallel (%j) = (0) to (symbol(%w)) reduce ("maximumf") -> f32 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.yield %v : f32
    }
    affine.store %m, %mx[%i] : memref<?xf32>
  }
  return
}

// full 2-D reductions returning scalars, written into a 2-element result.
func.func @total(%A: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  %s, %m = affine.parallel (%i, %j) = (0, 0) to (symbol(%h), symbol(%w)) reduce ("addf", "maximumf") -> (f32, f32) {
    %v = affine.load %A[%i, %j] : memref<?x?xf32>
    %sq = arith.mulf %v, %v : f32
    affine.yield %sq, %v : f32, f32
  }
  affine.store %s, %out[0] : memref<?xf32>
  affine.store %m, %out[1] : memref<?xf32>
  return
}

// tiled copy-scale: outer affine.parallel over tiles, inner bounds min(t+32, N)
func.func @tiled_scale(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  %three = arith.constant 3.0 : f32
  affine.parallel (%ti, %tj) = (0, 0) to (symbol(%h), symbol(%w)) step (8, 32) {
    affine.parallel (%i, %j) = (%ti, %tj) to (min(%ti + 8, symbol(%h)), min(%tj + 32, symbol(%w))) {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      %r = arith.mulf %v, %three : f32
      affine.store %r, %B[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// affine.for tiles with affine.min, parallel inside; and a lower bound with max.
func.func @tiled_for(%A: memref<?xf32>, %B: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  affine.for %t = 0 to %n step 32 {
    affine.parallel (%i) = (max(%t, 3)) to (min(%t + 32, symbol(%n))) {
      %v = affine.load %A[%i] : memref<?xf32>
      %u = affine.load %A[%i - 3] : memref<?xf32>
      %r = arith.addf %v, %u : f32
      affine.store %r, %B[%i] : memref<?xf32>
    }
  }
  // second pass: affine.min tile bound feeding an scf.parallel
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  affine.for %t = 0 to %n step 16 {
    %hi = affine.min #tile_hi(%t)[%n]
    %lo = affine.max affine_map<(d0) -> (d0, 2)>(%t)
    scf.parallel (%i) = (%lo) to (%hi) step (%c2) {
      %v = memref.load %B[%i] : memref<?xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %B[%i] : memref<?xf32>
      scf.reduce
    }
  }
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
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c5 = arith.constant 5 : index
  %h = arith.constant 37 : index
  %w = arith.constant 29 : index
  %z = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %A = memref.alloc(%h, %w) : memref<?x?xf32>
  call @fill2(%A, %c7, %three) : (memref<?x?xf32>, index, f32) -> ()
  %S = memref.alloc(%h) : memref<?xf32>
  %M = memref.alloc(%h) : memref<?xf32>
  call @row_sum_max(%A, %S, %M) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %uS = memref.cast %S : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uS) : (memref<*xf32>) -> ()
  %uM = memref.cast %M : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uM) : (memref<*xf32>) -> ()
  %T = memref.alloc(%c2) : memref<?xf32>
  call @total(%A, %T) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %uT = memref.cast %T : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uT) : (memref<*xf32>) -> ()
  // 1 x 1 total, to hit a single-element reduction
  %A1 = memref.alloc(%c1, %c1) : memref<?x?xf32>
  call @fill2(%A1, %c7, %three) : (memref<?x?xf32>, index, f32) -> ()
  call @total(%A1, %T) : (memref<?x?xf32>, memref<?xf32>) -> ()
  call @printMemrefF32(%uT) : (memref<*xf32>) -> ()
  %B = memref.alloc(%h, %w) : memref<?x?xf32>
  call @tiled_scale(%A, %B) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %uB = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%uB) : (memref<*xf32>) -> ()
  %n = arith.constant 77 : index
  %X = memref.alloc(%c1, %n) : memref<?x?xf32>
  %Y = memref.alloc(%c1, %n) : memref<?x?xf32>
  call @fill2(%X, %c7, %z) : (memref<?x?xf32>, index, f32) -> ()
  call @fill2(%Y, %c5, %three) : (memref<?x?xf32>, index, f32) -> ()
  %x1 = memref.collapse_shape %X [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %y1 = memref.collapse_shape %Y [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  call @tiled_for(%x1, %y1) : (memref<?xf32>, memref<?xf32>) -> ()
  %uY = memref.cast %y1 : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%uY) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<?x?xf32>
  memref.dealloc %A1 : memref<?x?xf32>
  memref.dealloc %S : memref<?xf32>
  memref.dealloc %M : memref<?xf32>
  memref.dealloc %T : memref<?xf32>
  memref.dealloc %B : memref<?x?xf32>
  memref.dealloc %X : memref<?x?xf32>
  memref.dealloc %Y : memref<?x?xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
