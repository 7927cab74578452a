// k-means assignment step (Rodinia kmeans_cuda_kernel.cu, kmeansPoint): per point, argmin over centroids in an scf.for with iter_args (f32, index), inner scf.for over features; writes i32 membership and the min distance.
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

func.func @kmeans_point(%feat: memref<?x?xf32>, %cent: memref<?x?xf32>, %member: memref<?xi32>, %mind: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %np = memref.dim %feat, %c0 : memref<?x?xf32>
  %nf = memref.dim %feat, %c1 : memref<?x?xf32>
  %nc = memref.dim %cent, %c0 : memref<?x?xf32>
  %big = arith.constant 3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %cm1 = arith.constant -1 : index
  scf.parallel (%p) = (%c0) to (%np) step (%c1) {
    %best:2 = scf.for %k = %c0 to %nc step %c1 iter_args(%md = %big, %bi = %cm1) -> (f32, index) {
      %dist = scf.for %l = %c0 to %nf step %c1 iter_args(%acc = %zero) -> f32 {
        %a = memref.load %feat[%p, %l] : memref<?x?xf32>
        %b = memref.load %cent[%k, %l] : memref<?x?xf32>
        %d = arith.subf %a, %b : f32
        %dd = arith.mulf %d, %d : f32
        %s = arith.addf %acc, %dd : f32
        scf.yield %s : f32
      }
      %lt = arith.cmpf olt, %dist, %md : f32
      %nmd = arith.select %lt, %dist, %md : f32
      %nbi = arith.select %lt, %k, %bi : index
      scf.yield %nmd, %nbi : f32, index
    }
    %bi32 = arith.index_cast %best#1 : index to i32
    memref.store %bi32, %member[%p] : memref<?xi32>
    memref.store %best#0, %mind[%p] : memref<?xf32>
  }
  return
}

func.func @run(%np: index, %nf: index, %nc: index) {
  %c0 = arith.constant 0 : index
  %feat = memref.alloc(%np, %nf) : memref<?x?xf32>
  %cent = memref.alloc(%nc, %nf) : memref<?x?xf32>
  %member = memref.alloc(%np) : memref<?xi32>
  %mind = memref.alloc(%np) : memref<?xf32>
  %o0 = arith.constant 0.0 : f32
  %o1 = arith.constant 1.5 : f32
  %o9 = arith.constant 9.0 : f32
  call @fill2d(%feat, %o0) : (memref<?x?xf32>, f32) -> ()
  call @fill2d(%cent, %o1) : (memref<?x?xf32>, f32) -> ()
  call @fill1d(%mind, %o9) : (memref<?xf32>, f32) -> ()
  call @kmeans_point(%feat, %cent, %member, %mind) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xi32>, memref<?xf32>) -> ()
  %e = arith.cmpi eq, %np, %c0 : index
  scf.if %e {
    vector.print str "empty\n"
  } else {
    %u = memref.cast %member : memref<?xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  }
  call @print1d(%mind) : (memref<?xf32>) -> ()
  memref.dealloc %feat : memref<?x?xf32>
  memref.dealloc %cent : memref<?x?xf32>
  memref.dealloc %member : memref<?xi32>
  memref.dealloc %mind : memref<?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c34 = arith.constant 34 : index
  %c37 = arith.constant 37 : index
  call @run(%c37, %c34, %c5) : (index, index, index) -> ()
  call @run(%c37, %c1, %c3) : (index, index, index) -> ()
  call @run(%c1, %c34, %c5) : (index, index, index) -> ()
  call @run(%c37, %c3, %c0) : (index, index, index) -> ()
  call @run(%c0, %c3, %c5) : (index, index, index) -> ()
  return
}
