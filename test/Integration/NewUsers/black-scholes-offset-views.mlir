// Black-Scholes on offset subviews (odd offsets 1,2,3 into larger buffers), so the widened loads/stores start unaligned.
// Black-Scholes (CUDA samples BlackScholes_kernel.cuh): CND polynomial approximation, exp/log/sqrt, helper functions called from the loop body.
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
func.func private @printMemrefI32(memref<*xi32>)

// m[i,j] = ((i*3+j*5) mod 7) - off
func.func @fill2d(%m: memref<?x?xf32>, %off: f32) {
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
      %q = arith.remui %s, %c7 : index
      %qi = arith.index_cast %q : index to i32
      %qf = arith.sitofp %qi : i32 to f32
      %v = arith.subf %qf, %off : f32
      memref.store %v, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// m[i] = ((i*3) mod 7) - off
func.func @fill1d(%m: memref<?xf32>, %off: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c3 : index
    %q = arith.remui %a, %c7 : index
    %qi = arith.index_cast %q : index to i32
    %qf = arith.sitofp %qi : i32 to f32
    %v = arith.subf %qf, %off : f32
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// printMemref prints garbage for a 0-sized memref: print its size instead.
func.func @print1d(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %e = arith.cmpi eq, %n, %c0 : index
  scf.if %e {
    vector.print str "empty\n"
  } else {
    %u = memref.cast %m : memref<?xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
func.func @print2d(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  %n = arith.muli %r, %c : index
  %e = arith.cmpi eq, %n, %c0 : index
  scf.if %e {
    vector.print str "empty\n"
  } else {
    %u = memref.cast %m : memref<?x?xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}

func.func @cnd(%d: f32) -> f32 {
  %A1 = arith.constant 0.31938153 : f32
  %A2 = arith.constant -0.356563782 : f32
  %A3 = arith.constant 1.781477937 : f32
  %A4 = arith.constant -1.821255978 : f32
  %A5 = arith.constant 1.330274429 : f32
  %RSQRT2PI = arith.constant 0.39894228040143267793994605993438 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant -0.5 : f32
  %zero = arith.constant 0.0 : f32
  %k0 = arith.constant 0.2316419 : f32
  %ad = math.absf %d : f32
  %t0 = arith.mulf %k0, %ad : f32
  %t1 = arith.addf %one, %t0 : f32
  %K = arith.divf %one, %t1 : f32
  %p5 = arith.mulf %K, %A5 : f32
  %p4 = arith.addf %A4, %p5 : f32
  %q4 = arith.mulf %K, %p4 : f32
  %p3 = arith.addf %A3, %q4 : f32
  %q3 = arith.mulf %K, %p3 : f32
  %p2 = arith.addf %A2, %q3 : f32
  %q2 = arith.mulf %K, %p2 : f32
  %p1 = arith.addf %A1, %q2 : f32
  %poly = arith.mulf %K, %p1 : f32
  %dd = arith.mulf %d, %d : f32
  %e0 = arith.mulf %half, %dd : f32
  %e = math.exp %e0 : f32
  %r0 = arith.mulf %RSQRT2PI, %e : f32
  %cnd = arith.mulf %r0, %poly : f32
  %pos = arith.cmpf ogt, %d, %zero : f32
  %inv = arith.subf %one, %cnd : f32
  %r = arith.select %pos, %inv, %cnd : f32
  return %r : f32
}

func.func @black_scholes(%call: memref<?xf32, strided<[1], offset: ?>>, %put: memref<?xf32, strided<[1], offset: ?>>, %S: memref<?xf32, strided<[1], offset: ?>>, %X: memref<?xf32, strided<[1], offset: ?>>, %T: memref<?xf32, strided<[1], offset: ?>>, %R: f32, %V: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %S, %c0 : memref<?xf32, strided<[1], offset: ?>>
  %one = arith.constant 1.0 : f32
  %halfc = arith.constant 0.5 : f32
  scf.parallel (%opt) = (%c0) to (%n) step (%c1) {
    %s = memref.load %S[%opt] : memref<?xf32, strided<[1], offset: ?>>
    %x = memref.load %X[%opt] : memref<?xf32, strided<[1], offset: ?>>
    %t = memref.load %T[%opt] : memref<?xf32, strided<[1], offset: ?>>
    %sqrtT = math.sqrt %t : f32
    %sx = arith.divf %s, %x : f32
    %lg = math.log %sx : f32
    %vv = arith.mulf %V, %V : f32
    %hv = arith.mulf %halfc, %vv : f32
    %rv = arith.addf %R, %hv : f32
    %rvt = arith.mulf %rv, %t : f32
    %num = arith.addf %lg, %rvt : f32
    %vs = arith.mulf %V, %sqrtT : f32
    %d1 = arith.divf %num, %vs : f32
    %d2 = arith.subf %d1, %vs : f32
    %cnd1 = func.call @cnd(%d1) : (f32) -> f32
    %cnd2 = func.call @cnd(%d2) : (f32) -> f32
    %nrt0 = arith.mulf %R, %t : f32
    %nrt = arith.negf %nrt0 : f32
    %expRT = math.exp %nrt : f32
    %a = arith.mulf %s, %cnd1 : f32
    %xe = arith.mulf %x, %expRT : f32
    %b = arith.mulf %xe, %cnd2 : f32
    %cv = arith.subf %a, %b : f32
    memref.store %cv, %call[%opt] : memref<?xf32, strided<[1], offset: ?>>
    %i2 = arith.subf %one, %cnd2 : f32
    %i1 = arith.subf %one, %cnd1 : f32
    %pa = arith.mulf %xe, %i2 : f32
    %pb = arith.mulf %s, %i1 : f32
    %pv = arith.subf %pa, %pb : f32
    memref.store %pv, %put[%opt] : memref<?xf32, strided<[1], offset: ?>>
  }
  return
}

// m[i] = floor(m[i]*1000), on the host side (sequential loop)
func.func @round1d(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 1000.0 : f32
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xf32>
    %w = arith.mulf %v, %k : f32
    %f = math.floor %w : f32
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return
}

func.func @run(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n4 = arith.addi %n, %c4 : index
  %S = memref.alloc(%n4) : memref<?xf32>
  %X = memref.alloc(%n4) : memref<?xf32>
  %T = memref.alloc(%n4) : memref<?xf32>
  %C = memref.alloc(%n4) : memref<?xf32>
  %P = memref.alloc(%n4) : memref<?xf32>
  %o1 = arith.constant -10.0 : f32
  %o2 = arith.constant -9.0 : f32
  %o3 = arith.constant -1.0 : f32
  %o4 = arith.constant 0.0 : f32
  call @fill1d(%S, %o1) : (memref<?xf32>, f32) -> ()
  call @fill1d(%X, %o2) : (memref<?xf32>, f32) -> ()
  call @fill1d(%T, %o3) : (memref<?xf32>, f32) -> ()
  call @fill1d(%C, %o4) : (memref<?xf32>, f32) -> ()
  call @fill1d(%P, %o4) : (memref<?xf32>, f32) -> ()
  %Ss = memref.subview %S[%c1] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %Xs = memref.subview %X[%c2] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %Ts = memref.subview %T[%c3] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %Cs = memref.subview %C[%c1] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %Ps = memref.subview %P[%c3] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %R = arith.constant 0.02 : f32
  %V = arith.constant 0.30 : f32
  call @black_scholes(%Cs, %Ps, %Ss, %Xs, %Ts, %R, %V) : (memref<?xf32, strided<[1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>, f32, f32) -> ()
  call @round1d(%C) : (memref<?xf32>) -> ()
  call @round1d(%P) : (memref<?xf32>) -> ()
  call @print1d(%C) : (memref<?xf32>) -> ()
  call @print1d(%P) : (memref<?xf32>) -> ()
  memref.dealloc %S : memref<?xf32>
  memref.dealloc %X : memref<?xf32>
  memref.dealloc %T : memref<?xf32>
  memref.dealloc %C : memref<?xf32>
  memref.dealloc %P : memref<?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  call @run(%c37) : (index) -> ()
  call @run(%c1) : (index) -> ()
  call @run(%c0) : (index) -> ()
  return
}
