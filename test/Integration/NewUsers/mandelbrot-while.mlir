// Mandelbrot (CUDA samples / NVIDIA blog 'mandelbrot_k'): per-pixel escape-time loop as scf.while, i32 iteration counts.
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

func.func @mandel(%out: memref<?x?xi32>, %x0: f32, %y0: f32, %d: f32, %maxit: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %out, %c0 : memref<?x?xi32>
  %w = memref.dim %out, %c1 : memref<?x?xi32>
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %two = arith.constant 2.0 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  scf.parallel (%py, %px) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %pxi = arith.index_cast %px : index to i32
    %pyi = arith.index_cast %py : index to i32
    %pxf = arith.sitofp %pxi : i32 to f32
    %pyf = arith.sitofp %pyi : i32 to f32
    %ox = arith.mulf %pxf, %d : f32
    %oy = arith.mulf %pyf, %d : f32
    %cx = arith.addf %x0, %ox : f32
    %cy = arith.addf %y0, %oy : f32
    %res:3 = scf.while (%x = %zero, %y = %zero, %it = %i0) : (f32, f32, i32) -> (f32, f32, i32) {
      %xx = arith.mulf %x, %x : f32
      %yy = arith.mulf %y, %y : f32
      %r2 = arith.addf %xx, %yy : f32
      %in = arith.cmpf ole, %r2, %four : f32
      %lt = arith.cmpi slt, %it, %maxit : i32
      %go = arith.andi %in, %lt : i1
      scf.condition(%go) %x, %y, %it : f32, f32, i32
    } do {
    ^bb0(%x: f32, %y: f32, %it: i32):
      %xx = arith.mulf %x, %x : f32
      %yy = arith.mulf %y, %y : f32
      %xy = arith.mulf %x, %y : f32
      %dxy = arith.subf %xx, %yy : f32
      %nx = arith.addf %dxy, %cx : f32
      %xy2 = arith.mulf %two, %xy : f32
      %ny = arith.addf %xy2, %cy : f32
      %nit = arith.addi %it, %i1 : i32
      scf.yield %nx, %ny, %nit : f32, f32, i32
    }
    memref.store %res#2, %out[%py, %px] : memref<?x?xi32>
  }
  return
}

func.func @run(%h: index, %w: index, %maxit: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = memref.alloc(%h, %w) : memref<?x?xi32>
  %x0 = arith.constant -2.0 : f32
  %y0 = arith.constant -1.125 : f32
  %d = arith.constant 0.078125 : f32
  call @mandel(%out, %x0, %y0, %d, %maxit) : (memref<?x?xi32>, f32, f32, f32, i32) -> ()
  %n = arith.muli %h, %w : index
  %e = arith.cmpi eq, %n, %c0 : index
  scf.if %e {
    vector.print str "empty\n"
  } else {
    %u = memref.cast %out : memref<?x?xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  }
  memref.dealloc %out : memref<?x?xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %m20 = arith.constant 20 : i32
  %m0 = arith.constant 0 : i32
  call @run(%c29, %c37, %m20) : (index, index, i32) -> ()
  call @run(%c1, %c37, %m20) : (index, index, i32) -> ()
  call @run(%c29, %c0, %m20) : (index, index, i32) -> ()
  call @run(%c29, %c1, %m0) : (index, index, i32) -> ()
  return
}
