// Elementwise math (activation functions, Black-Scholes-like pieces); results quantised with floor(x*16).
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

func.func @act(%X: memref<?x?xf32>, %Q: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %X, %c0 : memref<?x?xf32>
  %w = memref.dim %X, %c1 : memref<?x?xf32>
  %c16 = arith.constant 16.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %p = arith.constant 1.5 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %x = memref.load %X[%i, %j] : memref<?x?xf32>
    %e = math.exp %x : f32
    %ax = math.absf %x : f32
    %ax1 = arith.addf %ax, %one : f32
    %l = math.log %ax1 : f32
    %s = math.sqrt %ax1 : f32
    %t = math.tanh %x : f32
    %er = math.tanh %ax : f32
    %pw = math.powf %ax1, %p : f32
    // gelu-ish
    %g0 = arith.addf %er, %one : f32
    %g1 = arith.mulf %g0, %half : f32
    %g = arith.mulf %x, %g1 : f32
    %neg = arith.cmpf olt, %x, %zero : f32
    %relu = arith.select %neg, %zero, %x : f32
    %a1 = arith.addf %e, %l : f32
    %a2 = arith.addf %a1, %s : f32
    %a3 = arith.addf %a2, %t : f32
    %a4 = arith.addf %a3, %pw : f32
    %a5 = arith.addf %a4, %g : f32
    %a6 = arith.addf %a5, %relu : f32
    %sc = arith.mulf %a6, %c16 : f32
    %fl = math.floor %sc : f32
    %qi = arith.fptosi %fl : f32 to i32
    memref.store %qi, %Q[%i, %j] : memref<?x?xi32>
    scf.reduce
  }
  return
}

// f64 variant with int64 output, plus sitofp round trip and a ceil/round mix
func.func @act64(%X: memref<?xi64>, %Q: memref<?xi64>, %R: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %X, %c0 : memref<?xi64>
  %c16 = arith.constant 16.0 : f64
  %k = arith.constant 0.125 : f64
  %one = arith.constant 1.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %xi = memref.load %X[%i] : memref<?xi64>
    %xf = arith.sitofp %xi : i64 to f64
    %x = arith.mulf %xf, %k : f64
    %e = math.exp %x : f64
    %ax = math.absf %x : f64
    %ax1 = arith.addf %ax, %one : f64
    %l = math.log %ax1 : f64
    %t = math.tanh %x : f64
    %c = math.ceil %x : f64
    %r = math.round %x : f64
    %s1 = arith.addf %e, %l : f64
    %s2 = arith.addf %s1, %t : f64
    %s3 = arith.addf %s2, %c : f64
    %s4 = arith.addf %s3, %r : f64
    %sc = arith.mulf %s4, %c16 : f64
    %fl = math.floor %sc : f64
    %q = arith.fptosi %fl : f64 to i64
    memref.store %q, %Q[%i] : memref<?xi64>
    %rt = arith.sitofp %q : i64 to f64
    %m = arith.maximumf %rt, %c : f64
    memref.store %m, %R[%i] : memref<?xf64>
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c13 = arith.constant 13 : index
  %h = arith.constant 23 : index
  %w = arith.constant 17 : index
  %k = arith.constant 0.25 : f32
  %six = arith.constant 6.0 : f32
  %X = memref.alloc(%h, %w) : memref<?x?xf32>
  %Q = memref.alloc(%h, %w) : memref<?x?xi32>
  scf.for %i = %c0 to %h step %c1 {
    scf.for %j = %c0 to %w step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c13 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      %g = arith.subf %f, %six : f32
      %x = arith.mulf %g, %k : f32
      memref.store %x, %X[%i, %j] : memref<?x?xf32>
    }
  }
  call @act(%X, %Q) : (memref<?x?xf32>, memref<?x?xi32>) -> ()
  %uQ = memref.cast %Q : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%uQ) : (memref<*xi32>) -> ()
  %n = arith.constant 61 : index
  %X2 = memref.alloc(%n) : memref<?xi64>
  %Q2 = memref.alloc(%n) : memref<?xi64>
  %R2 = memref.alloc(%n) : memref<?xf64>
  %c30 = arith.constant 30 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.subi %i, %c30 : index
    %vi = arith.index_cast %v : index to i64
    memref.store %vi, %X2[%i] : memref<?xi64>
  }
  call @act64(%X2, %Q2, %R2) : (memref<?xi64>, memref<?xi64>, memref<?xf64>) -> ()
  %uQ2 = memref.cast %Q2 : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%uQ2) : (memref<*xi64>) -> ()
  %uR2 = memref.cast %R2 : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%uR2) : (memref<*xf64>) -> ()
  memref.dealloc %X : memref<?x?xf32>
  memref.dealloc %Q : memref<?x?xi32>
  memref.dealloc %X2 : memref<?xi64>
  memref.dealloc %Q2 : memref<?xi64>
  memref.dealloc %R2 : memref<?xf64>
  return
}
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF64(memref<*xf64>)
