// Gather / scatter through an index array (thrust::gather / thrust::scatter, and the 'permute rows' kernel of e.g. PyTorch index_copy): idx is a permutation; gather as linalg.generic loading from a captured memref, scatter as scf.parallel, row scatter as scf.forall.
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
#id = affine_map<(d0) -> (d0)>

func.func @gather(%in: memref<?xf32>, %idx: memref<?xi32>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx : memref<?xi32>) outs(%out : memref<?xf32>) {
  ^bb0(%k: i32, %o: f32):
    %ki = arith.index_cast %k : i32 to index
    %v = memref.load %in[%ki] : memref<?xf32>
    linalg.yield %v : f32
  }
  return
}

func.func @scatter(%in: memref<?xf32>, %idx: memref<?xi32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %k = memref.load %idx[%i] : memref<?xi32>
    %ki = arith.index_cast %k : i32 to index
    %v = memref.load %in[%i] : memref<?xf32>
    memref.store %v, %out[%ki] : memref<?xf32>
  }
  return
}

func.func @scatter_rows(%in: memref<?x?xf32>, %idx: memref<?xi32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %in, %c0 : memref<?x?xf32>
  %c = memref.dim %in, %c1 : memref<?x?xf32>
  scf.forall (%i, %j) in (%r, %c) {
    %k = memref.load %idx[%i] : memref<?xi32>
    %ki = arith.index_cast %k : i32 to index
    %v = memref.load %in[%i, %j] : memref<?x?xf32>
    memref.store %v, %out[%ki, %j] : memref<?x?xf32>
  }
  return
}

func.func @run(%n: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c100 = arith.constant 100 : index
  %idx = memref.alloc(%n) : memref<?xi32>
  // idx[i] = (i*5 + 3) mod n, a permutation when gcd(5, n) = 1
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c5 : index
    %b = arith.addi %a, %c100 : index
    %q = arith.remui %b, %n : index
    %qi = arith.index_cast %q : index to i32
    memref.store %qi, %idx[%i] : memref<?xi32>
  }
  %in = memref.alloc(%n) : memref<?xf32>
  %g = memref.alloc(%n) : memref<?xf32>
  %s = memref.alloc(%n) : memref<?xf32>
  %in2 = memref.alloc(%n, %c) : memref<?x?xf32>
  %s2 = memref.alloc(%n, %c) : memref<?x?xf32>
  %o0 = arith.constant 0.0 : f32
  %o9 = arith.constant 9.0 : f32
  call @fill1d(%in, %o0) : (memref<?xf32>, f32) -> ()
  // make in distinct: in[i] = i + fill/8
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %in[%i] : memref<?xf32>
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %e = arith.constant 0.125 : f32
    %w = arith.mulf %v, %e : f32
    %u = arith.addf %f, %w : f32
    memref.store %u, %in[%i] : memref<?xf32>
  }
  call @fill1d(%g, %o9) : (memref<?xf32>, f32) -> ()
  call @fill1d(%s, %o9) : (memref<?xf32>, f32) -> ()
  call @fill2d(%in2, %o0) : (memref<?x?xf32>, f32) -> ()
  call @fill2d(%s2, %o9) : (memref<?x?xf32>, f32) -> ()
  call @gather(%in, %idx, %g) : (memref<?xf32>, memref<?xi32>, memref<?xf32>) -> ()
  call @scatter(%in, %idx, %s) : (memref<?xf32>, memref<?xi32>, memref<?xf32>) -> ()
  call @scatter_rows(%in2, %idx, %s2) : (memref<?x?xf32>, memref<?xi32>, memref<?x?xf32>) -> ()
  call @print1d(%g) : (memref<?xf32>) -> ()
  call @print1d(%s) : (memref<?xf32>) -> ()
  call @print2d(%s2) : (memref<?x?xf32>) -> ()
  memref.dealloc %idx : memref<?xi32>
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %g : memref<?xf32>
  memref.dealloc %s : memref<?xf32>
  memref.dealloc %in2 : memref<?x?xf32>
  memref.dealloc %s2 : memref<?x?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  call @run(%c37, %c29) : (index, index) -> ()
  call @run(%c29, %c1) : (index, index) -> ()
  call @run(%c1, %c7) : (index, index) -> ()
  call @run(%c0, %c7) : (index, index) -> ()
  return
}
