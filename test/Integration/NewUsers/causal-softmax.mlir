// Causal masked softmax (the attention-score softmax of e.g. FasterTransformer/llm.c softmax_forward with a causal mask j <= i), base-2 so that every sum is exact: row loop with inner scf.parallel max and sum reductions as scf.reduce.
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

func.func @causal_softmax(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    %m = scf.parallel (%j) = (%c0) to (%cols) step (%c1) init (%ninf) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %ok = arith.cmpi ule, %j, %i : index
      %mv = arith.select %ok, %v, %ninf : f32
      scf.reduce(%mv : f32) {
      ^bb0(%a: f32, %b: f32):
        %r = arith.maximumf %a, %b : f32
        scf.reduce.return %r : f32
      }
    }
    %s = scf.parallel (%j) = (%c0) to (%cols) step (%c1) init (%zero) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %ok = arith.cmpi ule, %j, %i : index
      %d = arith.subf %v, %m : f32
      %e = math.exp2 %d : f32
      %me = arith.select %ok, %e, %zero : f32
      scf.reduce(%me : f32) {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        scf.reduce.return %r : f32
      }
    }
    scf.parallel (%j) = (%c0) to (%cols) step (%c1) {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %ok = arith.cmpi ule, %j, %i : index
      %d = arith.subf %v, %m : f32
      %e = math.exp2 %d : f32
      %p = arith.divf %e, %s : f32
      %o = arith.select %ok, %p, %zero : f32
      memref.store %o, %y[%i, %j] : memref<?x?xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

func.func @round2d(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 1000.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %w = arith.mulf %v, %k : f32
      %f = math.floor %w : f32
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @run(%r: index, %c: index) {
  %x = memref.alloc(%r, %c) : memref<?x?xf32>
  %y = memref.alloc(%r, %c) : memref<?x?xf32>
  %o = arith.constant 3.0 : f32
  %o2 = arith.constant -50.0 : f32
  call @fill2d(%x, %o) : (memref<?x?xf32>, f32) -> ()
  call @fill2d(%y, %o2) : (memref<?x?xf32>, f32) -> ()
  call @causal_softmax(%x, %y) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @round2d(%y) : (memref<?x?xf32>) -> ()
  call @print2d(%y) : (memref<?x?xf32>) -> ()
  memref.dealloc %x : memref<?x?xf32>
  memref.dealloc %y : memref<?x?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  call @run(%c37, %c29) : (index, index) -> ()
  call @run(%c1, %c37) : (index, index) -> ()
  call @run(%c29, %c1) : (index, index) -> ()
  call @run(%c0, %c29) : (index, index) -> ()
  return
}
