// Bitonic sort (the classic CUDA bitonic_sort_step kernel): partner i xor j, compare-and-swap written only by the lower partner; host stage loops (scf.while doubling k, halving j) around an scf.parallel.
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

func.func @bitonic_sort(%v: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  // k = 2, 4, ... while k < 2n (covers the next power of two of n)
  %n2 = arith.muli %n, %c2 : index
  %kend = scf.while (%k = %c2) : (index) -> index {
    %go = arith.cmpi ult, %k, %n2 : index
    scf.condition(%go) %k : index
  } do {
  ^bb0(%k: index):
    %j0 = arith.shrui %k, %c1 : index
    %jend = scf.while (%j = %j0) : (index) -> index {
      %gj = arith.cmpi ugt, %j, %c0 : index
      scf.condition(%gj) %j : index
    } do {
    ^bb0(%j: index):
      scf.parallel (%i) = (%c0) to (%n) step (%c1) {
        %ixj = arith.xori %i, %j : index
        %up = arith.cmpi ugt, %ixj, %i : index
        %inb = arith.cmpi ult, %ixj, %n : index
        %act = arith.andi %up, %inb : i1
        scf.if %act {
          %ik = arith.andi %i, %k : index
          %asc = arith.cmpi eq, %ik, %c0 : index
          %a = memref.load %v[%i] : memref<?xf32>
          %b = memref.load %v[%ixj] : memref<?xf32>
          %gt = arith.cmpf ogt, %a, %b : f32
          %lt = arith.cmpf olt, %a, %b : f32
          %sw = arith.select %asc, %gt, %lt : i1
          scf.if %sw {
            memref.store %b, %v[%i] : memref<?xf32>
            memref.store %a, %v[%ixj] : memref<?xf32>
          }
        }
        scf.reduce
      }
      %jn = arith.shrui %j, %c1 : index
      scf.yield %jn : index
    }
    %kn = arith.shli %k, %c1 : index
    scf.yield %kn : index
  }
  return
}

func.func @run(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c17 = arith.constant 17 : index
  %c37 = arith.constant 37 : index
  %v = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c17 : index
    %q = arith.remui %a, %c37 : index
    %qi = arith.index_cast %q : index to i32
    %qf = arith.sitofp %qi : i32 to f32
    memref.store %qf, %v[%i] : memref<?xf32>
  }
  call @bitonic_sort(%v) : (memref<?xf32>) -> ()
  call @print1d(%v) : (memref<?xf32>) -> ()
  memref.dealloc %v : memref<?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c37 = arith.constant 37 : index
  call @run(%c32) : (index) -> ()
  call @run(%c37) : (index) -> ()
  call @run(%c1) : (index) -> ()
  call @run(%c0) : (index) -> ()
  return
}
