// PolyBench gesummv: y = alpha A x + beta B x, as affine loops.
// Source: PolyBench/C 4.2, linear-algebra/blas/gesummv (kernel_gesummv)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes the i loop affine.parallel; the
// j loop stays affine.for (tmp[i] and y[i] are accumulated in memory).
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
// BOUND-DAG: remark: one block per outer iteration
// CHECK: tmp 
// CHECK: y 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048x2048 --shape 2=2048 --shape 3=2048 --shape 4=2048

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %tmp: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.25 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  affine.for %i = 0 to %n {
    affine.store %zero, %tmp[%i] : memref<?xf32>
    affine.store %zero, %y[%i] : memref<?xf32>
    affine.for %j = 0 to %n {
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      %xj = affine.load %x[%j] : memref<?xf32>
      %pa = arith.mulf %a, %xj : f32
      %t = affine.load %tmp[%i] : memref<?xf32>
      %nt = arith.addf %pa, %t : f32
      affine.store %nt, %tmp[%i] : memref<?xf32>
      %b = affine.load %B[%i, %j] : memref<?x?xf32>
      %xj2 = affine.load %x[%j] : memref<?xf32>
      %pb = arith.mulf %b, %xj2 : f32
      %yo = affine.load %y[%i] : memref<?xf32>
      %ny = arith.addf %pb, %yo : f32
      affine.store %ny, %y[%i] : memref<?xf32>
    }
    %tf = affine.load %tmp[%i] : memref<?xf32>
    %at = arith.mulf %alpha, %tf : f32
    %yf = affine.load %y[%i] : memref<?xf32>
    %by = arith.mulf %beta, %yf : f32
    %s = arith.addf %at, %by : f32
    affine.store %s, %y[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 43 : index
  %A = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %n step %c1 {
    scf.for %A_i1 = %c0 to %n step %c1 {
      %A_w0 = arith.constant 7 : index
      %A_p0 = arith.muli %A_i0, %A_w0 : index
      %A_w1 = arith.constant 11 : index
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
  %B = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %B_i0 = %c0 to %n step %c1 {
    scf.for %B_i1 = %c0 to %n step %c1 {
      %B_w0 = arith.constant 7 : index
      %B_p0 = arith.muli %B_i0, %B_w0 : index
      %B_w1 = arith.constant 11 : index
      %B_p1 = arith.muli %B_i1, %B_w1 : index
      %B_s1 = arith.addi %B_p0, %B_p1 : index
      %B_m = arith.constant 3 : index
      %B_r = arith.remui %B_s1, %B_m : index
      %B_ri = arith.index_cast %B_r : index to i32
      %B_rf = arith.sitofp %B_ri : i32 to f32
      %B_h = arith.constant 1.0 : f32
      %B_v = arith.subf %B_rf, %B_h : f32
      memref.store %B_v, %B[%B_i0, %B_i1] : memref<?x?xf32>
    }
  }
  %tmp = memref.alloc(%n) : memref<?xf32>
  scf.for %tmp_i0 = %c0 to %n step %c1 {
    %tmp_w0 = arith.constant 7 : index
    %tmp_p0 = arith.muli %tmp_i0, %tmp_w0 : index
    %tmp_m = arith.constant 3 : index
    %tmp_r = arith.remui %tmp_p0, %tmp_m : index
    %tmp_ri = arith.index_cast %tmp_r : index to i32
    %tmp_rf = arith.sitofp %tmp_ri : i32 to f32
    %tmp_h = arith.constant 1.0 : f32
    %tmp_v = arith.subf %tmp_rf, %tmp_h : f32
    memref.store %tmp_v, %tmp[%tmp_i0] : memref<?xf32>
  }
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %x_i0 = %c0 to %n step %c1 {
    %x_w0 = arith.constant 7 : index
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
    %y_w0 = arith.constant 7 : index
    %y_p0 = arith.muli %y_i0, %y_w0 : index
    %y_m = arith.constant 3 : index
    %y_r = arith.remui %y_p0, %y_m : index
    %y_ri = arith.index_cast %y_r : index to i32
    %y_rf = arith.sitofp %y_ri : i32 to f32
    %y_h = arith.constant 1.0 : f32
    %y_v = arith.subf %y_rf, %y_h : f32
    memref.store %y_v, %y[%y_i0] : memref<?xf32>
  }
  call @kernel(%A, %B, %tmp, %x, %y) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %c7 = arith.constant 7 : index
  %tmp_zero = arith.constant 0.0 : f32
  %tmp_acc0 = scf.for %tmp_k0 = %c0 to %n step %c1 iter_args(%tmp_a0 = %tmp_zero) -> f32 {
    %tmp_wt0 = arith.constant 3 : index
    %tmp_q0 = arith.muli %tmp_k0, %tmp_wt0 : index
    %tmp_cv = memref.load %tmp[%tmp_k0] : memref<?xf32>
    %tmp_cw = arith.remui %tmp_q0, %c7 : index
    %tmp_cw1 = arith.addi %tmp_cw, %c1 : index
    %tmp_cwi = arith.index_cast %tmp_cw1 : index to i32
    %tmp_cwf = arith.sitofp %tmp_cwi : i32 to f32
    %tmp_cprod = arith.mulf %tmp_cv, %tmp_cwf : f32
    %tmp_csum = arith.addf %tmp_a0, %tmp_cprod : f32
    scf.yield %tmp_csum : f32
  }
  vector.print str "tmp "
  vector.print %tmp_acc0 : f32
  %y_zero = arith.constant 0.0 : f32
  %y_acc0 = scf.for %y_k0 = %c0 to %n step %c1 iter_args(%y_a0 = %y_zero) -> f32 {
    %y_wt0 = arith.constant 3 : index
    %y_q0 = arith.muli %y_k0, %y_wt0 : index
    %y_cv = memref.load %y[%y_k0] : memref<?xf32>
    %y_cw = arith.remui %y_q0, %c7 : index
    %y_cw1 = arith.addi %y_cw, %c1 : index
    %y_cwi = arith.index_cast %y_cw1 : index to i32
    %y_cwf = arith.sitofp %y_cwi : i32 to f32
    %y_cprod = arith.mulf %y_cv, %y_cwf : f32
    %y_csum = arith.addf %y_a0, %y_cprod : f32
    scf.yield %y_csum : f32
  }
  vector.print str "y "
  vector.print %y_acc0 : f32
  return
}
