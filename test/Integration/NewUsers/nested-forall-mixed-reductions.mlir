// Block/thread nested scf.forall (transform-dialect style copied by hand) and multi-typed scf.parallel reductions
// (i32 count, f32 sum, index argmax, i1 any).
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

func.func @tile_add(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  %tb = arith.ceildivui %h, %c8 : index
  %tw = arith.ceildivui %w, %c16 : index
  scf.forall (%bi, %bj) in (%tb, %tw) {
    %i0 = arith.muli %bi, %c8 : index
    %j0 = arith.muli %bj, %c16 : index
    scf.forall (%ti, %tj) in (8, 16) {
      %i = arith.addi %i0, %ti : index
      %j = arith.addi %j0, %tj : index
      %inh = arith.cmpi ult, %i, %h : index
      %inw = arith.cmpi ult, %j, %w : index
      %in = arith.andi %inh, %inw : i1
      scf.if %in {
        %a = memref.load %A[%i, %j] : memref<?x?xf32>
        %b = memref.load %B[%i, %j] : memref<?x?xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %B[%i, %j] : memref<?x?xf32>
      }
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

func.func @stats(%x: memref<?xf32>, %out: memref<4xi32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %zi = arith.constant 0 : i32
  %zf = arith.constant 0.0 : f32
  %false = arith.constant false
  %thr = arith.constant 2.0 : f32
  %big = arith.constant 5.0 : f32
  %r:4 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zi, %zf, %c0, %false) -> (i32, f32, index, i1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %gt = arith.cmpf ogt, %v, %thr : f32
    %one = arith.extui %gt : i1 to i32
    %isbig = arith.cmpf oge, %v, %big : f32
    // argmax of value, ties broken by the larger index: key = v*1024 + i as index
    %vi = arith.fptosi %v : f32 to i32
    %vx = arith.index_cast %vi : i32 to index
    %c1024 = arith.constant 1024 : index
    %k0 = arith.muli %vx, %c1024 : index
    %key = arith.addi %k0, %i : index
    scf.reduce(%one, %v, %key, %isbig : i32, f32, index, i1) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }, {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: index, %b: index):
      %s = arith.maxui %a, %b : index
      scf.reduce.return %s : index
    }, {
    ^bb0(%a: i1, %b: i1):
      %s = arith.ori %a, %b : i1
      scf.reduce.return %s : i1
    }
  }
  memref.store %r#0, %out[%c0] : memref<4xi32>
  %c1024 = arith.constant 1024 : index
  %am = arith.remui %r#2, %c1024 : index
  %ami = arith.index_cast %am : index to i32
  memref.store %ami, %out[%c1] : memref<4xi32>
  %bi = arith.extui %r#3 : i1 to i32
  memref.store %bi, %out[%c2] : memref<4xi32>
  %ni = arith.index_cast %n : index to i32
  memref.store %ni, %out[%c3] : memref<4xi32>
  return %r#1 : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %h = arith.constant 37 : index
  %w = arith.constant 29 : index
  %A = memref.alloc(%h, %w) : memref<?x?xf32>
  %B = memref.alloc(%h, %w) : memref<?x?xf32>
  scf.for %i = %c0 to %h step %c1 {
    scf.for %j = %c0 to %w step %c1 {
      %x = arith.muli %i, %c3 : index
      %y = arith.muli %j, %c5 : index
      %s = arith.addi %x, %y : index
      %r = arith.remui %s, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      memref.store %f, %A[%i, %j] : memref<?x?xf32>
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      memref.store %fi, %B[%i, %j] : memref<?x?xf32>
    }
  }
  call @tile_add(%A, %B) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %uB = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%uB) : (memref<*xf32>) -> ()
  %n = arith.constant 1000 : index
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.muli %i, %c5 : index
    %r = arith.remui %m, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    memref.store %f, %x[%i] : memref<?xf32>
  }
  %o = memref.alloc() : memref<4xi32>
  %s = call @stats(%x, %o) : (memref<?xf32>, memref<4xi32>) -> f32
  vector.print %s : f32
  %uo = memref.cast %o : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
  %x0 = memref.alloc(%c0) : memref<?xf32>
  %s0 = call @stats(%x0, %o) : (memref<?xf32>, memref<4xi32>) -> f32
  vector.print %s0 : f32
  call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
  %x1 = memref.subview %x[3] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: 3>>
  %x1c = memref.alloc(%c1) : memref<?xf32>
  %v3 = memref.load %x[%c3] : memref<?xf32>
  memref.store %v3, %x1c[%c0] : memref<?xf32>
  %s1 = call @stats(%x1c, %o) : (memref<?xf32>, memref<4xi32>) -> f32
  vector.print %s1 : f32
  call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
