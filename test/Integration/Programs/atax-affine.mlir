// PolyBench atax: y = A^T (A x), as affine loops.
// Source: PolyBench/C 4.2, linear-algebra/kernels/atax (kernel_atax)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes the loop that zeroes y affine.parallel and the
// second j loop (y[j] += A[i][j] tmp[i]) affine.parallel; the outer i loop
// (every i adds into all of y) and the first j loop (tmp[i] accumulated in
// memory) stay affine.for.
// Checked in CPU emulation against the original (affine.for, not
// parallelized) under the default options, a cover grid with 64-thread
// blocks, and an explicit block shape.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -affine-parallelize="parallel-reductions=1" -o %t.par.mlir
// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %t.par.mlir -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %t.par.mlir -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %t.par.mlir -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// BOUND-DAG: remark: reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: tmp 
// CHECK: y 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048 --shape 2=2048 --shape 3=2048

func.func @kernel(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %tmp: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %n {
    affine.store %zero, %y[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %m {
    affine.store %zero, %tmp[%i] : memref<?xf32>
    affine.for %j = 0 to %n {
      %t = affine.load %tmp[%i] : memref<?xf32>
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      %b = affine.load %x[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %r = arith.addf %t, %p : f32
      affine.store %r, %tmp[%i] : memref<?xf32>
    }
    affine.for %j = 0 to %n {
      %v = affine.load %y[%j] : memref<?xf32>
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      %t = affine.load %tmp[%i] : memref<?xf32>
      %p = arith.mulf %a, %t : f32
      %r = arith.addf %v, %p : f32
      affine.store %r, %y[%j] : memref<?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 37 : index
  %n = arith.constant 29 : index
  %A = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %m step %c1 {
    scf.for %A_i1 = %c0 to %n step %c1 {
      %A_w0 = arith.constant 3 : index
      %A_p0 = arith.muli %A_i0, %A_w0 : index
      %A_w1 = arith.constant 5 : index
      %A_p1 = arith.muli %A_i1, %A_w1 : index
      %A_s1 = arith.addi %A_p0, %A_p1 : index
      %A_m = arith.constant 5 : index
      %A_r = arith.remui %A_s1, %A_m : index
      %A_ri = arith.index_cast %A_r : index to i32
      %A_rf = arith.sitofp %A_ri : i32 to f32
      %A_h = arith.constant 2.0 : f32
      %A_v = arith.subf %A_rf, %A_h : f32
      memref.store %A_v, %A[%A_i0, %A_i1] : memref<?x?xf32>
    }
  }
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %x_i0 = %c0 to %n step %c1 {
    %x_w0 = arith.constant 3 : index
    %x_p0 = arith.muli %x_i0, %x_w0 : index
    %x_m = arith.constant 4 : index
    %x_r = arith.remui %x_p0, %x_m : index
    %x_ri = arith.index_cast %x_r : index to i32
    %x_rf = arith.sitofp %x_ri : i32 to f32
    %x_h = arith.constant 2.0 : f32
    %x_v = arith.subf %x_rf, %x_h : f32
    memref.store %x_v, %x[%x_i0] : memref<?xf32>
  }
  %y = memref.alloc(%n) : memref<?xf32>
  scf.for %y_i0 = %c0 to %n step %c1 {
    %y_w0 = arith.constant 3 : index
    %y_p0 = arith.muli %y_i0, %y_w0 : index
    %y_m = arith.constant 3 : index
    %y_r = arith.remui %y_p0, %y_m : index
    %y_ri = arith.index_cast %y_r : index to i32
    %y_rf = arith.sitofp %y_ri : i32 to f32
    %y_h = arith.constant 1.0 : f32
    %y_v = arith.subf %y_rf, %y_h : f32
    memref.store %y_v, %y[%y_i0] : memref<?xf32>
  }
  %tmp = memref.alloc(%m) : memref<?xf32>
  scf.for %tmp_i0 = %c0 to %m step %c1 {
    %tmp_w0 = arith.constant 3 : index
    %tmp_p0 = arith.muli %tmp_i0, %tmp_w0 : index
    %tmp_m = arith.constant 3 : index
    %tmp_r = arith.remui %tmp_p0, %tmp_m : index
    %tmp_ri = arith.index_cast %tmp_r : index to i32
    %tmp_rf = arith.sitofp %tmp_ri : i32 to f32
    %tmp_h = arith.constant 1.0 : f32
    %tmp_v = arith.subf %tmp_rf, %tmp_h : f32
    memref.store %tmp_v, %tmp[%tmp_i0] : memref<?xf32>
  }
  call @kernel(%A, %x, %y, %tmp) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %tmp_zero = arith.constant 0.0 : f32
  %tmp_acc0 = scf.for %tmp_k0 = %c0 to %m step %c1 iter_args(%tmp_a0 = %tmp_zero) -> f32 {
    %v = memref.load %tmp[%tmp_k0] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %tmp_k0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %tmp_a0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "tmp "
  vector.print %tmp_acc0 : f32
  %y_zero = arith.constant 0.0 : f32
  %y_acc0 = scf.for %y_k0 = %c0 to %n step %c1 iter_args(%y_a0 = %y_zero) -> f32 {
    %v = memref.load %y[%y_k0] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %y_k0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %y_a0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "y "
  vector.print %y_acc0 : f32
  return
}
