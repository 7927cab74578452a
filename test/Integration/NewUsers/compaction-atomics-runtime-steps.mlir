// Stream compaction with an atomic counter, generic_atomic_rmw (CAS-style float max), atomic maxs,
// and scf.parallel with run-time lower bound / step (and an empty range).
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

func.func @compact(%a: memref<?xi32>, %out: memref<?xi32>, %cnt: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %zi = arith.constant 0 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xi32>
    %r = arith.remui %v, %five : i32
    %keep = arith.cmpi eq, %r, %zi : i32
    scf.if %keep {
      %slot = memref.atomic_rmw addi %one, %cnt[%c0] : (i32, memref<1xi32>) -> i32
      %sx = arith.index_cast %slot : i32 to index
      memref.store %v, %out[%sx] : memref<?xi32>
    }
    scf.reduce
  }
  return
}

func.func @bin_max(%a: memref<?xi32>, %w: memref<?xf32>, %bmax: memref<?xi32>, %imax: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %nb = memref.dim %bmax, %c0 : memref<?xi32>
  %xi2 = arith.constant 1000 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xi32>
    %vx = arith.index_cast %v : i32 to index
    %b = arith.remui %vx, %nb : index
    %x = memref.load %w[%i] : memref<?xf32>
    %xi = arith.fptosi %x : f32 to i32
    %old = memref.generic_atomic_rmw %bmax[%b] : memref<?xi32> {
    ^bb0(%cur: i32):
      %m = arith.maxsi %cur, %xi : i32
      %m2 = arith.muli %m, %m : i32
      %m3 = arith.remsi %m2, %xi2 : i32
      %m4 = arith.maxsi %m, %m3 : i32
      memref.atomic_yield %m : i32
    }
    %ii = arith.index_cast %i : index to i32
    %o2 = memref.atomic_rmw maxs %ii, %imax[%b] : (i32, memref<?xi32>) -> i32
    scf.reduce
  }
  return
}

func.func @strided(%x: memref<?xf32>, %lo: index, %st: index) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %ten = arith.constant 10.0 : f32
  scf.parallel (%i) = (%lo) to (%n) step (%st) {
    %v = memref.load %x[%i] : memref<?xf32>
    %r = arith.addf %v, %ten : f32
    memref.store %r, %x[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

func.func @strided2(%x: memref<?x?xf32>, %lo: index, %st: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %x, %c0 : memref<?x?xf32>
  %w = memref.dim %x, %c1 : memref<?x?xf32>
  %ten = arith.constant 100.0 : f32
  scf.parallel (%i, %j) = (%c1, %lo) to (%h, %w) step (%st, %st) {
    %v = memref.load %x[%i, %j] : memref<?x?xf32>
    %r = arith.addf %v, %ten : f32
    memref.store %r, %x[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %n = arith.constant 301 : index
  %a = memref.alloc(%n) : memref<?xi32>
  %w = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xi32>
  %cnt = memref.alloc() : memref<1xi32>
  %zi = arith.constant 0 : i32
  memref.store %zi, %cnt[%c0] : memref<1xi32>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.muli %i, %c7 : index
    %r = arith.remui %m, %n : index
    %ri = arith.index_cast %r : index to i32
    memref.store %ri, %a[%i] : memref<?xi32>
    memref.store %zi, %out[%i] : memref<?xi32>
    %r13 = arith.remui %m, %c13 : index
    %r13i = arith.index_cast %r13 : index to i32
    %f = arith.sitofp %r13i : i32 to f32
    memref.store %f, %w[%i] : memref<?xf32>
  }
  call @compact(%a, %out, %cnt) : (memref<?xi32>, memref<?xi32>, memref<1xi32>) -> ()
  %count = memref.load %cnt[%c0] : memref<1xi32>
  vector.print %count : i32
  // order-independent summary of the compacted values: sum and xor
  %cx = arith.index_cast %count : i32 to index
  %s:2 = scf.for %i = %c0 to %cx step %c1 iter_args(%s0 = %zi, %x0 = %zi) -> (i32, i32) {
    %v = memref.load %out[%i] : memref<?xi32>
    %s1 = arith.addi %s0, %v : i32
    %x1 = arith.xori %x0, %v : i32
    scf.yield %s1, %x1 : i32, i32
  }
  vector.print %s#0 : i32
  vector.print %s#1 : i32
  %nb = arith.constant 9 : index
  %bmax = memref.alloc(%nb) : memref<?xi32>
  %imax = memref.alloc(%nb) : memref<?xi32>
  %ninf = arith.constant -1.0 : f32
  %mi = arith.constant -1 : i32
  scf.for %i = %c0 to %nb step %c1 {
    memref.store %mi, %bmax[%i] : memref<?xi32>
    memref.store %mi, %imax[%i] : memref<?xi32>
  }
  call @bin_max(%a, %w, %bmax, %imax) : (memref<?xi32>, memref<?xf32>, memref<?xi32>, memref<?xi32>) -> ()
  %ub = memref.cast %bmax : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
  %ui = memref.cast %imax : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%ui) : (memref<*xi32>) -> ()
  // strided with run-time bounds
  %m = arith.constant 50 : index
  %x = memref.alloc(%m) : memref<?xf32>
  %zf = arith.constant 0.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    memref.store %zf, %x[%i] : memref<?xf32>
  }
  call @strided(%x, %c3, %c7) : (memref<?xf32>, index, index) -> ()
  %c60 = arith.constant 60 : index
  call @strided(%x, %c60, %c2) : (memref<?xf32>, index, index) -> ()
  call @strided(%x, %c2, %n) : (memref<?xf32>, index, index) -> ()
  %ux = memref.cast %x : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%ux) : (memref<*xf32>) -> ()
  %h = arith.constant 19 : index
  %ww = arith.constant 23 : index
  %X = memref.alloc(%h, %ww) : memref<?x?xf32>
  scf.for %i = %c0 to %h step %c1 {
    scf.for %j = %c0 to %ww step %c1 {
      memref.store %zf, %X[%i, %j] : memref<?x?xf32>
    }
  }
  call @strided2(%X, %c2, %c3) : (memref<?x?xf32>, index, index) -> ()
  %uX = memref.cast %X : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%uX) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
