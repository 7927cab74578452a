// PolyBench 3mm: E = A B, F = C D, G = E F, as affine loops.
// Source: PolyBench/C 4.2, linear-algebra/kernels/3mm (kernel_3mm)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes the i and j loops of all three
// products affine.parallel; the three k loops stay affine.for (E[i][j], F[i][j]
// and G[i][j] are accumulated in memory).
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
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: E 
// CHECK: F 
// CHECK: G 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512x512 --shape 3=512x512 --shape 4=512x512 --shape 5=512x512 --shape 6=512x512

func.func @kernel(%E: memref<?x?xf32>, %A: memref<?x?xf32>, %B: memref<?x?xf32>, %F: memref<?x?xf32>, %C: memref<?x?xf32>, %D: memref<?x?xf32>, %G: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ni = memref.dim %A, %c0 : memref<?x?xf32>
  %nk = memref.dim %A, %c1 : memref<?x?xf32>
  %nj = memref.dim %B, %c1 : memref<?x?xf32>
  %nm = memref.dim %C, %c1 : memref<?x?xf32>
  %nl = memref.dim %D, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %ni {
    affine.for %j = 0 to %nj {
      affine.store %zero, %E[%i, %j] : memref<?x?xf32>
      affine.for %k = 0 to %nk {
        %a = affine.load %A[%i, %k] : memref<?x?xf32>
        %b = affine.load %B[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %o = affine.load %E[%i, %j] : memref<?x?xf32>
        %r = arith.addf %o, %p : f32
        affine.store %r, %E[%i, %j] : memref<?x?xf32>
      }
    }
  }
  affine.for %i = 0 to %nj {
    affine.for %j = 0 to %nl {
      affine.store %zero, %F[%i, %j] : memref<?x?xf32>
      affine.for %k = 0 to %nm {
        %a = affine.load %C[%i, %k] : memref<?x?xf32>
        %b = affine.load %D[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %o = affine.load %F[%i, %j] : memref<?x?xf32>
        %r = arith.addf %o, %p : f32
        affine.store %r, %F[%i, %j] : memref<?x?xf32>
      }
    }
  }
  affine.for %i = 0 to %ni {
    affine.for %j = 0 to %nl {
      affine.store %zero, %G[%i, %j] : memref<?x?xf32>
      affine.for %k = 0 to %nj {
        %a = affine.load %E[%i, %k] : memref<?x?xf32>
        %b = affine.load %F[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %o = affine.load %G[%i, %j] : memref<?x?xf32>
        %r = arith.addf %o, %p : f32
        affine.store %r, %G[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = arith.constant 13 : index
  %nj = arith.constant 15 : index
  %nk = arith.constant 17 : index
  %nl = arith.constant 19 : index
  %nm = arith.constant 11 : index
  %E = memref.alloc(%ni, %nj) : memref<?x?xf32>
  scf.for %E_i0 = %c0 to %ni step %c1 {
    scf.for %E_i1 = %c0 to %nj step %c1 {
      %E_w0 = arith.constant 7 : index
      %E_p0 = arith.muli %E_i0, %E_w0 : index
      %E_w1 = arith.constant 11 : index
      %E_p1 = arith.muli %E_i1, %E_w1 : index
      %E_s1 = arith.addi %E_p0, %E_p1 : index
      %E_m = arith.constant 3 : index
      %E_r = arith.remui %E_s1, %E_m : index
      %E_ri = arith.index_cast %E_r : index to i32
      %E_rf = arith.sitofp %E_ri : i32 to f32
      %E_h = arith.constant 1.0 : f32
      %E_v = arith.subf %E_rf, %E_h : f32
      memref.store %E_v, %E[%E_i0, %E_i1] : memref<?x?xf32>
    }
  }
  %A = memref.alloc(%ni, %nk) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %ni step %c1 {
    scf.for %A_i1 = %c0 to %nk step %c1 {
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
  %B = memref.alloc(%nk, %nj) : memref<?x?xf32>
  scf.for %B_i0 = %c0 to %nk step %c1 {
    scf.for %B_i1 = %c0 to %nj step %c1 {
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
  %F = memref.alloc(%nj, %nl) : memref<?x?xf32>
  scf.for %F_i0 = %c0 to %nj step %c1 {
    scf.for %F_i1 = %c0 to %nl step %c1 {
      %F_w0 = arith.constant 7 : index
      %F_p0 = arith.muli %F_i0, %F_w0 : index
      %F_w1 = arith.constant 11 : index
      %F_p1 = arith.muli %F_i1, %F_w1 : index
      %F_s1 = arith.addi %F_p0, %F_p1 : index
      %F_m = arith.constant 3 : index
      %F_r = arith.remui %F_s1, %F_m : index
      %F_ri = arith.index_cast %F_r : index to i32
      %F_rf = arith.sitofp %F_ri : i32 to f32
      %F_h = arith.constant 1.0 : f32
      %F_v = arith.subf %F_rf, %F_h : f32
      memref.store %F_v, %F[%F_i0, %F_i1] : memref<?x?xf32>
    }
  }
  %C = memref.alloc(%nj, %nm) : memref<?x?xf32>
  scf.for %C_i0 = %c0 to %nj step %c1 {
    scf.for %C_i1 = %c0 to %nm step %c1 {
      %C_w0 = arith.constant 7 : index
      %C_p0 = arith.muli %C_i0, %C_w0 : index
      %C_w1 = arith.constant 11 : index
      %C_p1 = arith.muli %C_i1, %C_w1 : index
      %C_s1 = arith.addi %C_p0, %C_p1 : index
      %C_m = arith.constant 4 : index
      %C_r = arith.remui %C_s1, %C_m : index
      %C_ri = arith.index_cast %C_r : index to i32
      %C_rf = arith.sitofp %C_ri : i32 to f32
      %C_h = arith.constant 2.0 : f32
      %C_v = arith.subf %C_rf, %C_h : f32
      memref.store %C_v, %C[%C_i0, %C_i1] : memref<?x?xf32>
    }
  }
  %D = memref.alloc(%nm, %nl) : memref<?x?xf32>
  scf.for %D_i0 = %c0 to %nm step %c1 {
    scf.for %D_i1 = %c0 to %nl step %c1 {
      %D_w0 = arith.constant 7 : index
      %D_p0 = arith.muli %D_i0, %D_w0 : index
      %D_w1 = arith.constant 11 : index
      %D_p1 = arith.muli %D_i1, %D_w1 : index
      %D_s1 = arith.addi %D_p0, %D_p1 : index
      %D_m = arith.constant 5 : index
      %D_r = arith.remui %D_s1, %D_m : index
      %D_ri = arith.index_cast %D_r : index to i32
      %D_rf = arith.sitofp %D_ri : i32 to f32
      %D_h = arith.constant 2.0 : f32
      %D_v = arith.subf %D_rf, %D_h : f32
      memref.store %D_v, %D[%D_i0, %D_i1] : memref<?x?xf32>
    }
  }
  %G = memref.alloc(%ni, %nl) : memref<?x?xf32>
  scf.for %G_i0 = %c0 to %ni step %c1 {
    scf.for %G_i1 = %c0 to %nl step %c1 {
      %G_w0 = arith.constant 7 : index
      %G_p0 = arith.muli %G_i0, %G_w0 : index
      %G_w1 = arith.constant 11 : index
      %G_p1 = arith.muli %G_i1, %G_w1 : index
      %G_s1 = arith.addi %G_p0, %G_p1 : index
      %G_m = arith.constant 3 : index
      %G_r = arith.remui %G_s1, %G_m : index
      %G_ri = arith.index_cast %G_r : index to i32
      %G_rf = arith.sitofp %G_ri : i32 to f32
      %G_h = arith.constant 1.0 : f32
      %G_v = arith.subf %G_rf, %G_h : f32
      memref.store %G_v, %G[%G_i0, %G_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%E, %A, %B, %F, %C, %D, %G) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %c7 = arith.constant 7 : index
  %E_zero = arith.constant 0.0 : f32
  %E_acc0 = scf.for %E_k0 = %c0 to %ni step %c1 iter_args(%E_a0 = %E_zero) -> f32 {
    %E_acc1 = scf.for %E_k1 = %c0 to %nj step %c1 iter_args(%E_a1 = %E_a0) -> f32 {
      %E_wt0 = arith.constant 3 : index
      %E_q0 = arith.muli %E_k0, %E_wt0 : index
      %E_wt1 = arith.constant 2 : index
      %E_q1 = arith.muli %E_k1, %E_wt1 : index
      %E_qs1 = arith.addi %E_q0, %E_q1 : index
      %E_cv = memref.load %E[%E_k0, %E_k1] : memref<?x?xf32>
      %E_cw = arith.remui %E_qs1, %c7 : index
      %E_cw1 = arith.addi %E_cw, %c1 : index
      %E_cwi = arith.index_cast %E_cw1 : index to i32
      %E_cwf = arith.sitofp %E_cwi : i32 to f32
      %E_cprod = arith.mulf %E_cv, %E_cwf : f32
      %E_csum = arith.addf %E_a1, %E_cprod : f32
      scf.yield %E_csum : f32
    }
    scf.yield %E_acc1 : f32
  }
  vector.print str "E "
  vector.print %E_acc0 : f32
  %F_zero = arith.constant 0.0 : f32
  %F_acc0 = scf.for %F_k0 = %c0 to %nj step %c1 iter_args(%F_a0 = %F_zero) -> f32 {
    %F_acc1 = scf.for %F_k1 = %c0 to %nl step %c1 iter_args(%F_a1 = %F_a0) -> f32 {
      %F_wt0 = arith.constant 3 : index
      %F_q0 = arith.muli %F_k0, %F_wt0 : index
      %F_wt1 = arith.constant 2 : index
      %F_q1 = arith.muli %F_k1, %F_wt1 : index
      %F_qs1 = arith.addi %F_q0, %F_q1 : index
      %F_cv = memref.load %F[%F_k0, %F_k1] : memref<?x?xf32>
      %F_cw = arith.remui %F_qs1, %c7 : index
      %F_cw1 = arith.addi %F_cw, %c1 : index
      %F_cwi = arith.index_cast %F_cw1 : index to i32
      %F_cwf = arith.sitofp %F_cwi : i32 to f32
      %F_cprod = arith.mulf %F_cv, %F_cwf : f32
      %F_csum = arith.addf %F_a1, %F_cprod : f32
      scf.yield %F_csum : f32
    }
    scf.yield %F_acc1 : f32
  }
  vector.print str "F "
  vector.print %F_acc0 : f32
  %G_zero = arith.constant 0.0 : f32
  %G_acc0 = scf.for %G_k0 = %c0 to %ni step %c1 iter_args(%G_a0 = %G_zero) -> f32 {
    %G_acc1 = scf.for %G_k1 = %c0 to %nl step %c1 iter_args(%G_a1 = %G_a0) -> f32 {
      %G_wt0 = arith.constant 3 : index
      %G_q0 = arith.muli %G_k0, %G_wt0 : index
      %G_wt1 = arith.constant 2 : index
      %G_q1 = arith.muli %G_k1, %G_wt1 : index
      %G_qs1 = arith.addi %G_q0, %G_q1 : index
      %G_cv = memref.load %G[%G_k0, %G_k1] : memref<?x?xf32>
      %G_cw = arith.remui %G_qs1, %c7 : index
      %G_cw1 = arith.addi %G_cw, %c1 : index
      %G_cwi = arith.index_cast %G_cw1 : index to i32
      %G_cwf = arith.sitofp %G_cwi : i32 to f32
      %G_cprod = arith.mulf %G_cv, %G_cwf : f32
      %G_csum = arith.addf %G_a1, %G_cprod : f32
      scf.yield %G_csum : f32
    }
    scf.yield %G_acc1 : f32
  }
  vector.print str "G "
  vector.print %G_acc0 : f32
  return
}
