// PolyBench gemver: A += u1 v1^T + u2 v2^T, x += beta A^T y + z, w += alpha A x, as affine loops.
// Source: PolyBench/C 4.2, linear-algebra/blas/gemver (kernel_gemver)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes both loops of the rank-2
// update, the i loops of x += beta A^T y and w += alpha A x and the x += z loop
// affine.parallel; the two inner j loops (x[i] and w[i] accumulated in memory)
// stay affine.for.
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
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: A 
// CHECK: x 
// CHECK: w 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048 --shape 2=2048 --shape 3=2048 --shape 4=2048 --shape 5=2048 --shape 6=2048 --shape 7=2048 --shape 8=2048

func.func @kernel(%A: memref<?x?xf32>, %u1: memref<?xf32>, %v1: memref<?xf32>, %u2: memref<?xf32>, %v2: memref<?xf32>, %w: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.25 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      %a1 = affine.load %u1[%i] : memref<?xf32>
      %b1 = affine.load %v1[%j] : memref<?xf32>
      %p1 = arith.mulf %a1, %b1 : f32
      %s1 = arith.addf %a, %p1 : f32
      %a2 = affine.load %u2[%i] : memref<?xf32>
      %b2 = affine.load %v2[%j] : memref<?xf32>
      %p2 = arith.mulf %a2, %b2 : f32
      %s2 = arith.addf %s1, %p2 : f32
      affine.store %s2, %A[%i, %j] : memref<?x?xf32>
    }
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %xo = affine.load %x[%i] : memref<?xf32>
      %a = affine.load %A[%j, %i] : memref<?x?xf32>
      %ba = arith.mulf %beta, %a : f32
      %yj = affine.load %y[%j] : memref<?xf32>
      %p = arith.mulf %ba, %yj : f32
      %r = arith.addf %xo, %p : f32
      affine.store %r, %x[%i] : memref<?xf32>
    }
  }
  affine.for %i = 0 to %n {
    %xo = affine.load %x[%i] : memref<?xf32>
    %zi = affine.load %z[%i] : memref<?xf32>
    %r = arith.addf %xo, %zi : f32
    affine.store %r, %x[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %wo = affine.load %w[%i] : memref<?xf32>
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      %aa = arith.mulf %alpha, %a : f32
      %xj = affine.load %x[%j] : memref<?xf32>
      %p = arith.mulf %aa, %xj : f32
      %r = arith.addf %wo, %p : f32
      affine.store %r, %w[%i] : memref<?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 41 : index
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
  %u1 = memref.alloc(%n) : memref<?xf32>
  scf.for %u1_i0 = %c0 to %n step %c1 {
    %u1_w0 = arith.constant 7 : index
    %u1_p0 = arith.muli %u1_i0, %u1_w0 : index
    %u1_m = arith.constant 3 : index
    %u1_r = arith.remui %u1_p0, %u1_m : index
    %u1_ri = arith.index_cast %u1_r : index to i32
    %u1_rf = arith.sitofp %u1_ri : i32 to f32
    %u1_h = arith.constant 1.0 : f32
    %u1_v = arith.subf %u1_rf, %u1_h : f32
    memref.store %u1_v, %u1[%u1_i0] : memref<?xf32>
  }
  %v1 = memref.alloc(%n) : memref<?xf32>
  scf.for %v1_i0 = %c0 to %n step %c1 {
    %v1_w0 = arith.constant 7 : index
    %v1_p0 = arith.muli %v1_i0, %v1_w0 : index
    %v1_m = arith.constant 4 : index
    %v1_r = arith.remui %v1_p0, %v1_m : index
    %v1_ri = arith.index_cast %v1_r : index to i32
    %v1_rf = arith.sitofp %v1_ri : i32 to f32
    %v1_h = arith.constant 2.0 : f32
    %v1_v = arith.subf %v1_rf, %v1_h : f32
    memref.store %v1_v, %v1[%v1_i0] : memref<?xf32>
  }
  %u2 = memref.alloc(%n) : memref<?xf32>
  scf.for %u2_i0 = %c0 to %n step %c1 {
    %u2_w0 = arith.constant 7 : index
    %u2_p0 = arith.muli %u2_i0, %u2_w0 : index
    %u2_m = arith.constant 5 : index
    %u2_r = arith.remui %u2_p0, %u2_m : index
    %u2_ri = arith.index_cast %u2_r : index to i32
    %u2_rf = arith.sitofp %u2_ri : i32 to f32
    %u2_h = arith.constant 2.0 : f32
    %u2_v = arith.subf %u2_rf, %u2_h : f32
    memref.store %u2_v, %u2[%u2_i0] : memref<?xf32>
  }
  %v2 = memref.alloc(%n) : memref<?xf32>
  scf.for %v2_i0 = %c0 to %n step %c1 {
    %v2_w0 = arith.constant 7 : index
    %v2_p0 = arith.muli %v2_i0, %v2_w0 : index
    %v2_m = arith.constant 3 : index
    %v2_r = arith.remui %v2_p0, %v2_m : index
    %v2_ri = arith.index_cast %v2_r : index to i32
    %v2_rf = arith.sitofp %v2_ri : i32 to f32
    %v2_h = arith.constant 1.0 : f32
    %v2_v = arith.subf %v2_rf, %v2_h : f32
    memref.store %v2_v, %v2[%v2_i0] : memref<?xf32>
  }
  %w = memref.alloc(%n) : memref<?xf32>
  scf.for %w_i0 = %c0 to %n step %c1 {
    %w_w0 = arith.constant 7 : index
    %w_p0 = arith.muli %w_i0, %w_w0 : index
    %w_m = arith.constant 3 : index
    %w_r = arith.remui %w_p0, %w_m : index
    %w_ri = arith.index_cast %w_r : index to i32
    %w_rf = arith.sitofp %w_ri : i32 to f32
    %w_h = arith.constant 1.0 : f32
    %w_v = arith.subf %w_rf, %w_h : f32
    memref.store %w_v, %w[%w_i0] : memref<?xf32>
  }
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %x_i0 = %c0 to %n step %c1 {
    %x_w0 = arith.constant 7 : index
    %x_p0 = arith.muli %x_i0, %x_w0 : index
    %x_m = arith.constant 5 : index
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
    %y_m = arith.constant 4 : index
    %y_r = arith.remui %y_p0, %y_m : index
    %y_ri = arith.index_cast %y_r : index to i32
    %y_rf = arith.sitofp %y_ri : i32 to f32
    %y_h = arith.constant 2.0 : f32
    %y_v = arith.subf %y_rf, %y_h : f32
    memref.store %y_v, %y[%y_i0] : memref<?xf32>
  }
  %z = memref.alloc(%n) : memref<?xf32>
  scf.for %z_i0 = %c0 to %n step %c1 {
    %z_w0 = arith.constant 7 : index
    %z_p0 = arith.muli %z_i0, %z_w0 : index
    %z_m = arith.constant 3 : index
    %z_r = arith.remui %z_p0, %z_m : index
    %z_ri = arith.index_cast %z_r : index to i32
    %z_rf = arith.sitofp %z_ri : i32 to f32
    %z_h = arith.constant 1.0 : f32
    %z_v = arith.subf %z_rf, %z_h : f32
    memref.store %z_v, %z[%z_i0] : memref<?xf32>
  }
  call @kernel(%A, %u1, %v1, %u2, %v2, %w, %x, %y, %z) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %c7 = arith.constant 7 : index
  %A_zero = arith.constant 0.0 : f32
  %A_acc0 = scf.for %A_k0 = %c0 to %n step %c1 iter_args(%A_a0 = %A_zero) -> f32 {
    %A_acc1 = scf.for %A_k1 = %c0 to %n step %c1 iter_args(%A_a1 = %A_a0) -> f32 {
      %A_wt0 = arith.constant 3 : index
      %A_q0 = arith.muli %A_k0, %A_wt0 : index
      %A_wt1 = arith.constant 2 : index
      %A_q1 = arith.muli %A_k1, %A_wt1 : index
      %A_qs1 = arith.addi %A_q0, %A_q1 : index
      %A_cv = memref.load %A[%A_k0, %A_k1] : memref<?x?xf32>
      %A_cw = arith.remui %A_qs1, %c7 : index
      %A_cw1 = arith.addi %A_cw, %c1 : index
      %A_cwi = arith.index_cast %A_cw1 : index to i32
      %A_cwf = arith.sitofp %A_cwi : i32 to f32
      %A_cprod = arith.mulf %A_cv, %A_cwf : f32
      %A_csum = arith.addf %A_a1, %A_cprod : f32
      scf.yield %A_csum : f32
    }
    scf.yield %A_acc1 : f32
  }
  vector.print str "A "
  vector.print %A_acc0 : f32
  %x_zero = arith.constant 0.0 : f32
  %x_acc0 = scf.for %x_k0 = %c0 to %n step %c1 iter_args(%x_a0 = %x_zero) -> f32 {
    %x_wt0 = arith.constant 3 : index
    %x_q0 = arith.muli %x_k0, %x_wt0 : index
    %x_cv = memref.load %x[%x_k0] : memref<?xf32>
    %x_cw = arith.remui %x_q0, %c7 : index
    %x_cw1 = arith.addi %x_cw, %c1 : index
    %x_cwi = arith.index_cast %x_cw1 : index to i32
    %x_cwf = arith.sitofp %x_cwi : i32 to f32
    %x_cprod = arith.mulf %x_cv, %x_cwf : f32
    %x_csum = arith.addf %x_a0, %x_cprod : f32
    scf.yield %x_csum : f32
  }
  vector.print str "x "
  vector.print %x_acc0 : f32
  %w_zero = arith.constant 0.0 : f32
  %w_acc0 = scf.for %w_k0 = %c0 to %n step %c1 iter_args(%w_a0 = %w_zero) -> f32 {
    %w_wt0 = arith.constant 3 : index
    %w_q0 = arith.muli %w_k0, %w_wt0 : index
    %w_cv = memref.load %w[%w_k0] : memref<?xf32>
    %w_cw = arith.remui %w_q0, %c7 : index
    %w_cw1 = arith.addi %w_cw, %c1 : index
    %w_cwi = arith.index_cast %w_cw1 : index to i32
    %w_cwf = arith.sitofp %w_cwi : i32 to f32
    %w_cprod = arith.mulf %w_cv, %w_cwf : f32
    %w_csum = arith.addf %w_a0, %w_cprod : f32
    scf.yield %w_csum : f32
  }
  vector.print str "w "
  vector.print %w_acc0 : f32
  return
}
