// PolyBench trmm: B = alpha A^T B with A unit lower triangular, as affine loops.
// Source: PolyBench/C 4.2, linear-algebra/blas/trmm (kernel_trmm)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes only the j loop affine.parallel;
// the i loop (row i reads the rows k > i that later i steps overwrite) and the
// k loop (B[i][j] accumulated in memory) stay affine.for.
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
// CHECK: B 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %alpha = arith.constant 1.5 : f32
  %m = memref.dim %B, %c0 : memref<?x?xf32>
  %n = memref.dim %B, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to %m {
        %a = affine.load %A[%k, %i] : memref<?x?xf32>
        %b = affine.load %B[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %o = affine.load %B[%i, %j] : memref<?x?xf32>
        %r = arith.addf %o, %p : f32
        affine.store %r, %B[%i, %j] : memref<?x?xf32>
      }
      %bf = affine.load %B[%i, %j] : memref<?x?xf32>
      %s = arith.mulf %alpha, %bf : f32
      affine.store %s, %B[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 23 : index
  %n = arith.constant 29 : index
  %A = memref.alloc(%m, %m) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %m step %c1 {
    scf.for %A_i1 = %c0 to %m step %c1 {
      %A_w0 = arith.constant 7 : index
      %A_p0 = arith.muli %A_i0, %A_w0 : index
      %A_w1 = arith.constant 11 : index
      %A_p1 = arith.muli %A_i1, %A_w1 : index
      %A_s1 = arith.addi %A_p0, %A_p1 : index
      %A_m = arith.constant 3 : index
      %A_r = arith.remui %A_s1, %A_m : index
      %A_ri = arith.index_cast %A_r : index to i32
      %A_rf = arith.sitofp %A_ri : i32 to f32
      %A_h = arith.constant 1.0 : f32
      %A_v = arith.subf %A_rf, %A_h : f32
      memref.store %A_v, %A[%A_i0, %A_i1] : memref<?x?xf32>
    }
  }
  %B = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %B_i0 = %c0 to %m step %c1 {
    scf.for %B_i1 = %c0 to %n step %c1 {
      %B_w0 = arith.constant 7 : index
      %B_p0 = arith.muli %B_i0, %B_w0 : index
      %B_w1 = arith.constant 11 : index
      %B_p1 = arith.muli %B_i1, %B_w1 : index
      %B_s1 = arith.addi %B_p0, %B_p1 : index
      %B_m = arith.constant 5 : index
      %B_r = arith.remui %B_s1, %B_m : index
      %B_ri = arith.index_cast %B_r : index to i32
      %B_rf = arith.sitofp %B_ri : i32 to f32
      %B_h = arith.constant 2.0 : f32
      %B_v = arith.subf %B_rf, %B_h : f32
      memref.store %B_v, %B[%B_i0, %B_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%A, %B) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %c7 = arith.constant 7 : index
  %B_zero = arith.constant 0.0 : f32
  %B_acc0 = scf.for %B_k0 = %c0 to %m step %c1 iter_args(%B_a0 = %B_zero) -> f32 {
    %B_acc1 = scf.for %B_k1 = %c0 to %n step %c1 iter_args(%B_a1 = %B_a0) -> f32 {
      %B_wt0 = arith.constant 3 : index
      %B_q0 = arith.muli %B_k0, %B_wt0 : index
      %B_wt1 = arith.constant 2 : index
      %B_q1 = arith.muli %B_k1, %B_wt1 : index
      %B_qs1 = arith.addi %B_q0, %B_q1 : index
      %B_cv = memref.load %B[%B_k0, %B_k1] : memref<?x?xf32>
      %B_cw = arith.remui %B_qs1, %c7 : index
      %B_cw1 = arith.addi %B_cw, %c1 : index
      %B_cwi = arith.index_cast %B_cw1 : index to i32
      %B_cwf = arith.sitofp %B_cwi : i32 to f32
      %B_cprod = arith.mulf %B_cv, %B_cwf : f32
      %B_csum = arith.addf %B_a1, %B_cprod : f32
      scf.yield %B_csum : f32
    }
    scf.yield %B_acc1 : f32
  }
  vector.print str "B "
  vector.print %B_acc0 : f32
  return
}
