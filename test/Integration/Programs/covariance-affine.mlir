// PolyBench covariance: the covariance matrix of the columns of data, as affine loops.
// Source: PolyBench/C 4.2, datamining/covariance (kernel_covariance)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes the j loop of the means, both
// loops of the centering and the i and j loops of the covariance
// affine.parallel; the i loop of the means (mean[j] accumulated in memory) and
// the k loop of the covariance (cov[i][j] accumulated in memory) stay
// affine.for.
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
// BOUND-DAG: remark: bound to gpu.launch: loop dimension 0
// BOUND-DAG: remark: bound to gpu.launch: one iteration per block
// CHECK: cov 
// CHECK: mean 
// CHECK: data 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512

func.func @kernel(%data: memref<?x?xf32>, %cov: memref<?x?xf32>, %mean: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %data, %c0 : memref<?x?xf32>
  %m = memref.dim %data, %c1 : memref<?x?xf32>
  %ni = arith.index_cast %n : index to i32
  %float_n = arith.sitofp %ni : i32 to f32
  affine.for %j = 0 to %m {
    affine.store %zero, %mean[%j] : memref<?xf32>
    affine.for %i = 0 to %n {
      %o = affine.load %mean[%j] : memref<?xf32>
      %d = affine.load %data[%i, %j] : memref<?x?xf32>
      %s = arith.addf %o, %d : f32
      affine.store %s, %mean[%j] : memref<?xf32>
    }
    %t = affine.load %mean[%j] : memref<?xf32>
    %q = arith.divf %t, %float_n : f32
    affine.store %q, %mean[%j] : memref<?xf32>
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %d = affine.load %data[%i, %j] : memref<?x?xf32>
      %mj = affine.load %mean[%j] : memref<?xf32>
      %r = arith.subf %d, %mj : f32
      affine.store %r, %data[%i, %j] : memref<?x?xf32>
    }
  }
  %nm1 = arith.subf %float_n, %one : f32
  affine.for %i = 0 to %m {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to %m {
      affine.store %zero, %cov[%i, %j] : memref<?x?xf32>
      affine.for %k = 0 to %n {
        %a = affine.load %data[%k, %i] : memref<?x?xf32>
        %b = affine.load %data[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %o = affine.load %cov[%i, %j] : memref<?x?xf32>
        %s = arith.addf %o, %p : f32
        affine.store %s, %cov[%i, %j] : memref<?x?xf32>
      }
      %c = affine.load %cov[%i, %j] : memref<?x?xf32>
      %dv = arith.divf %c, %nm1 : f32
      affine.store %dv, %cov[%i, %j] : memref<?x?xf32>
      affine.store %dv, %cov[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 16 : index
  %m = arith.constant 23 : index
  %data = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %data_i0 = %c0 to %n step %c1 {
    scf.for %data_i1 = %c0 to %m step %c1 {
      %data_w0 = arith.constant 7 : index
      %data_p0 = arith.muli %data_i0, %data_w0 : index
      %data_w1 = arith.constant 11 : index
      %data_p1 = arith.muli %data_i1, %data_w1 : index
      %data_s1 = arith.addi %data_p0, %data_p1 : index
      %data_m = arith.constant 5 : index
      %data_r = arith.remui %data_s1, %data_m : index
      %data_ri = arith.index_cast %data_r : index to i32
      %data_rf = arith.sitofp %data_ri : i32 to f32
      %data_h = arith.constant 2.0 : f32
      %data_v = arith.subf %data_rf, %data_h : f32
      memref.store %data_v, %data[%data_i0, %data_i1] : memref<?x?xf32>
    }
  }
  %cov = memref.alloc(%m, %m) : memref<?x?xf32>
  scf.for %cov_i0 = %c0 to %m step %c1 {
    scf.for %cov_i1 = %c0 to %m step %c1 {
      %cov_w0 = arith.constant 7 : index
      %cov_p0 = arith.muli %cov_i0, %cov_w0 : index
      %cov_w1 = arith.constant 11 : index
      %cov_p1 = arith.muli %cov_i1, %cov_w1 : index
      %cov_s1 = arith.addi %cov_p0, %cov_p1 : index
      %cov_m = arith.constant 3 : index
      %cov_r = arith.remui %cov_s1, %cov_m : index
      %cov_ri = arith.index_cast %cov_r : index to i32
      %cov_rf = arith.sitofp %cov_ri : i32 to f32
      %cov_h = arith.constant 1.0 : f32
      %cov_v = arith.subf %cov_rf, %cov_h : f32
      memref.store %cov_v, %cov[%cov_i0, %cov_i1] : memref<?x?xf32>
    }
  }
  %mean = memref.alloc(%m) : memref<?xf32>
  scf.for %mean_i0 = %c0 to %m step %c1 {
    %mean_w0 = arith.constant 7 : index
    %mean_p0 = arith.muli %mean_i0, %mean_w0 : index
    %mean_m = arith.constant 3 : index
    %mean_r = arith.remui %mean_p0, %mean_m : index
    %mean_ri = arith.index_cast %mean_r : index to i32
    %mean_rf = arith.sitofp %mean_ri : i32 to f32
    %mean_h = arith.constant 1.0 : f32
    %mean_v = arith.subf %mean_rf, %mean_h : f32
    memref.store %mean_v, %mean[%mean_i0] : memref<?xf32>
  }
  call @kernel(%data, %cov, %mean) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  %c7 = arith.constant 7 : index
  // cov: each element is rounded to a multiple of 1/1024 first, so the
  // terms are integers and the sum is exact in any order (the mapped
  // program sums this loop as a parallel reduction).
  %cov_scale = arith.constant 1024.0 : f32
  %cov_zero = arith.constant 0.0 : f32
  %cov_acc0 = scf.for %cov_k0 = %c0 to %m step %c1 iter_args(%cov_a0 = %cov_zero) -> f32 {
    %cov_acc1 = scf.for %cov_k1 = %c0 to %m step %c1 iter_args(%cov_a1 = %cov_a0) -> f32 {
      %cov_wt0 = arith.constant 3 : index
      %cov_q0 = arith.muli %cov_k0, %cov_wt0 : index
      %cov_wt1 = arith.constant 2 : index
      %cov_q1 = arith.muli %cov_k1, %cov_wt1 : index
      %cov_qs1 = arith.addi %cov_q0, %cov_q1 : index
      %cov_cv = memref.load %cov[%cov_k0, %cov_k1] : memref<?x?xf32>
      %cov_cw = arith.remui %cov_qs1, %c7 : index
      %cov_cw1 = arith.addi %cov_cw, %c1 : index
      %cov_cwi = arith.index_cast %cov_cw1 : index to i32
      %cov_cwf = arith.sitofp %cov_cwi : i32 to f32
      %cov_cs = arith.mulf %cov_cv, %cov_scale : f32
      %cov_cr = math.roundeven %cov_cs : f32
      %cov_cprod = arith.mulf %cov_cr, %cov_cwf : f32
      %cov_csum = arith.addf %cov_a1, %cov_cprod : f32
      scf.yield %cov_csum : f32
    }
    scf.yield %cov_acc1 : f32
  }
  vector.print str "cov "
  vector.print %cov_acc0 : f32
  %mean_zero = arith.constant 0.0 : f32
  %mean_acc0 = scf.for %mean_k0 = %c0 to %m step %c1 iter_args(%mean_a0 = %mean_zero) -> f32 {
    %mean_wt0 = arith.constant 3 : index
    %mean_q0 = arith.muli %mean_k0, %mean_wt0 : index
    %mean_cv = memref.load %mean[%mean_k0] : memref<?xf32>
    %mean_cw = arith.remui %mean_q0, %c7 : index
    %mean_cw1 = arith.addi %mean_cw, %c1 : index
    %mean_cwi = arith.index_cast %mean_cw1 : index to i32
    %mean_cwf = arith.sitofp %mean_cwi : i32 to f32
    %mean_cprod = arith.mulf %mean_cv, %mean_cwf : f32
    %mean_csum = arith.addf %mean_a0, %mean_cprod : f32
    scf.yield %mean_csum : f32
  }
  vector.print str "mean "
  vector.print %mean_acc0 : f32
  %data_zero = arith.constant 0.0 : f32
  %data_acc0 = scf.for %data_k0 = %c0 to %n step %c1 iter_args(%data_a0 = %data_zero) -> f32 {
    %data_acc1 = scf.for %data_k1 = %c0 to %m step %c1 iter_args(%data_a1 = %data_a0) -> f32 {
      %data_wt0 = arith.constant 3 : index
      %data_q0 = arith.muli %data_k0, %data_wt0 : index
      %data_wt1 = arith.constant 2 : index
      %data_q1 = arith.muli %data_k1, %data_wt1 : index
      %data_qs1 = arith.addi %data_q0, %data_q1 : index
      %data_cv = memref.load %data[%data_k0, %data_k1] : memref<?x?xf32>
      %data_cw = arith.remui %data_qs1, %c7 : index
      %data_cw1 = arith.addi %data_cw, %c1 : index
      %data_cwi = arith.index_cast %data_cw1 : index to i32
      %data_cwf = arith.sitofp %data_cwi : i32 to f32
      %data_cprod = arith.mulf %data_cv, %data_cwf : f32
      %data_csum = arith.addf %data_a1, %data_cprod : f32
      scf.yield %data_csum : f32
    }
    scf.yield %data_acc1 : f32
  }
  vector.print str "data "
  vector.print %data_acc0 : f32
  return
}
