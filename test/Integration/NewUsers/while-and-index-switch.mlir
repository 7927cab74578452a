// Per-element Collatz step counts (divergent scf.while) and an scf.index_switch opcode kernel.
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

func.func @collatz(%in: memref<?xi32>, %steps: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x0 = memref.load %in[%i] : memref<?xi32>
    %zero = arith.constant 0 : i32
    %r:2 = scf.while (%x = %x0, %k = %zero) : (i32, i32) -> (i32, i32) {
      %one = arith.constant 1 : i32
      %go = arith.cmpi ugt, %x, %one : i32
      scf.condition(%go) %x, %k : i32, i32
    } do {
    ^bb0(%x: i32, %k: i32):
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %bit = arith.andi %x, %one : i32
      %odd = arith.cmpi ne, %bit, %zero : i32
      %t = arith.muli %x, %three : i32
      %t1 = arith.addi %t, %one : i32
      %h = arith.divui %x, %two : i32
      %nx = arith.select %odd, %t1, %h : i32
      %nk = arith.addi %k, %one : i32
      scf.yield %nx, %nk : i32, i32
    }
    memref.store %r#1, %steps[%i] : memref<?xi32>
    scf.reduce
  }
  return
}

// 2-D: op code per row picks the operation applied to each element.
func.func @ops(%code: memref<?xi32>, %A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %A, %c0 : memref<?x?xf32>
  %w = memref.dim %A, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %ci = memref.load %code[%i] : memref<?xi32>
    %cx = arith.index_cast %ci : i32 to index
    %jm = arith.remui %j, %c1 : index
    %sel = arith.addi %cx, %jm : index
    %v = memref.load %A[%i, %j] : memref<?x?xf32>
    %r = scf.index_switch %sel -> f32
    case 0 {
      %a = arith.addf %v, %v : f32
      scf.yield %a : f32
    }
    case 1 {
      %a = arith.negf %v : f32
      scf.yield %a : f32
    }
    case 3 {
      %jc = arith.index_cast %j : index to i32
      %jf = arith.sitofp %jc : i32 to f32
      %a = arith.mulf %v, %jf : f32
      scf.yield %a : f32
    }
    default {
      %z = arith.constant 7.0 : f32
      scf.yield %z : f32
    }
    memref.store %r, %B[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// element-dependent switch (divergent within a warp), no results, stores inside cases
func.func @scatter_switch(%A: memref<?xi32>, %O: memref<?x3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %A, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %A[%i] : memref<?xi32>
    %vx = arith.index_cast %v : i32 to index
    %k = arith.remui %vx, %c3 : index
    scf.index_switch %k
    case 0 {
      memref.store %v, %O[%i, %c0] : memref<?x3xi32>
      scf.yield
    }
    case 2 {
      %d = arith.addi %v, %v : i32
      memref.store %d, %O[%i, %c2] : memref<?x3xi32>
      memref.store %v, %O[%i, %c1] : memref<?x3xi32>
      scf.yield
    }
    default {
      scf.yield
    }
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %n = arith.constant 97 : index
  %in = memref.alloc(%n) : memref<?xi32>
  %st = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.muli %i, %c7 : index
    %a = arith.addi %m, %c1 : index
    %ai = arith.index_cast %a : index to i32
    memref.store %ai, %in[%i] : memref<?xi32>
  }
  call @collatz(%in, %st) : (memref<?xi32>, memref<?xi32>) -> ()
  %us = memref.cast %st : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%us) : (memref<*xi32>) -> ()
  %h = arith.constant 9 : index
  %w = arith.constant 37 : index
  %code = memref.alloc(%h) : memref<?xi32>
  %A = memref.alloc(%h, %w) : memref<?x?xf32>
  %B = memref.alloc(%h, %w) : memref<?x?xf32>
  scf.for %i = %c0 to %h step %c1 {
    %r = arith.remui %i, %c5 : index
    %ri = arith.index_cast %r : index to i32
    memref.store %ri, %code[%i] : memref<?xi32>
    scf.for %j = %c0 to %w step %c1 {
      %x = arith.muli %i, %c3 : index
      %y = arith.muli %j, %c5 : index
      %s = arith.addi %x, %y : index
      %q = arith.remui %s, %c7 : index
      %qi = arith.index_cast %q : index to i32
      %f = arith.sitofp %qi : i32 to f32
      memref.store %f, %A[%i, %j] : memref<?x?xf32>
    }
  }
  call @ops(%code, %A, %B) : (memref<?xi32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %uB = memref.cast %B : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%uB) : (memref<*xf32>) -> ()
  %O = memref.alloc(%n) : memref<?x3xi32>
  %m1 = arith.constant -1 : i32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      memref.store %m1, %O[%i, %j] : memref<?x3xi32>
    }
  }
  call @scatter_switch(%in, %O) : (memref<?xi32>, memref<?x3xi32>) -> ()
  %uO = memref.cast %O : memref<?x3xi32> to memref<*xi32>
  call @printMemrefI32(%uO) : (memref<*xi32>) -> ()
  memref.dealloc %in : memref<?xi32>
  memref.dealloc %st : memref<?xi32>
  memref.dealloc %code : memref<?xi32>
  memref.dealloc %A : memref<?x?xf32>
  memref.dealloc %B : memref<?x?xf32>
  memref.dealloc %O : memref<?x3xi32>
  return
}
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
