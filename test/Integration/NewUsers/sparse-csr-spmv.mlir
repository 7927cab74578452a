// CSR SpMV (Bell & Garland spmv_csr_scalar_kernel): one row per thread, inner loop bounds from row pointers.
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
// A sparse row starts where ptr[row] says: the remark must not call its
// loads coalesced across the outputs.
// RUN: threadbind-compile --emit=mlir --remarks %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: column reduction mapped: {{.*}} outputs (its loads do not walk memory contiguously across the outputs, but each output's threads share its row)

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

func.func @spmv_csr_scalar(%ptr: memref<?xi32>, %idx: memref<?xi32>, %data: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %y, %c0 : memref<?xf32>
  scf.parallel (%row) = (%c0) to (%rows) step (%c1) {
    %s32 = memref.load %ptr[%row] : memref<?xi32>
    %row1 = arith.addi %row, %c1 : index
    %e32 = memref.load %ptr[%row1] : memref<?xi32>
    %s = arith.index_cast %s32 : i32 to index
    %e = arith.index_cast %e32 : i32 to index
    %dot = scf.for %jj = %s to %e step %c1 iter_args(%acc = %zero) -> f32 {
      %col32 = memref.load %idx[%jj] : memref<?xi32>
      %col = arith.index_cast %col32 : i32 to index
      %a = memref.load %data[%jj] : memref<?xf32>
      %b = memref.load %x[%col] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %n = arith.addf %acc, %p : f32
      scf.yield %n : f32
    }
    memref.store %dot, %y[%row] : memref<?xf32>
  }
  return
}

// Builds a CSR matrix rows x cols with (i mod 4) nonzeros in row i, runs SpMV, prints y.
func.func @run(%rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %f3 = arith.constant 3.0 : f32
  %rows1 = arith.addi %rows, %c1 : index
  %ptr = memref.alloc(%rows1) : memref<?xi32>
  // nnz upper bound 3*rows (+1 to avoid 0-size alloc issues)
  %cap0 = arith.muli %rows, %c3 : index
  %cap = arith.addi %cap0, %c1 : index
  %idx = memref.alloc(%cap) : memref<?xi32>
  %data = memref.alloc(%cap) : memref<?xf32>
  %z32 = arith.constant 0 : i32
  memref.store %z32, %ptr[%c0] : memref<?xi32>
  %nnz = scf.for %i = %c0 to %rows step %c1 iter_args(%pos = %c0) -> index {
    %k_n = arith.remui %i, %c4 : index
    scf.for %k = %c0 to %k_n step %c1 {
      %p = arith.addi %pos, %k : index
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %k, %c5 : index
      %s = arith.addi %a, %b : index
      %col = arith.remui %s, %cols : index
      %col32 = arith.index_cast %col : index to i32
      memref.store %col32, %idx[%p] : memref<?xi32>
      %k2 = arith.muli %k, %c2 : index
      %t = arith.addi %i, %k2 : index
      %q = arith.remui %t, %c7 : index
      %qi = arith.index_cast %q : index to i32
      %qf = arith.sitofp %qi : i32 to f32
      %v = arith.subf %qf, %f3 : f32
      memref.store %v, %data[%p] : memref<?xf32>
    }
    %np = arith.addi %pos, %k_n : index
    %i1 = arith.addi %i, %c1 : index
    %np32 = arith.index_cast %np : index to i32
    memref.store %np32, %ptr[%i1] : memref<?xi32>
    scf.yield %np : index
  }
  %x = memref.alloc(%cols) : memref<?xf32>
  %f2 = arith.constant 2.0 : f32
  call @fill1d(%x, %f2) : (memref<?xf32>, f32) -> ()
  %y = memref.alloc(%rows) : memref<?xf32>
  %m1 = arith.constant -100.0 : f32
  call @fill1d(%y, %m1) : (memref<?xf32>, f32) -> ()
  call @spmv_csr_scalar(%ptr, %idx, %data, %x, %y) : (memref<?xi32>, memref<?xi32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  call @print1d(%y) : (memref<?xf32>) -> ()
  memref.dealloc %ptr : memref<?xi32>
  memref.dealloc %idx : memref<?xi32>
  memref.dealloc %data : memref<?xf32>
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %y : memref<?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  call @run(%c37, %c29) : (index, index) -> ()
  call @run(%c1, %c29) : (index, index) -> ()
  call @run(%c0, %c29) : (index, index) -> ()
  call @run(%c37, %c1) : (index, index) -> ()
  return
}
