// PolyBench fdtd-2d: 2-D finite-difference time-domain, ey/ex/hz updates for T steps, as affine loops.
// Source: PolyBench/C 4.2, stencils/fdtd-2d (kernel_fdtd_2d)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes the loop that sets ey's first
// row and the i and j loops of the ey, ex and hz updates affine.parallel; the
// time loop stays an affine.for.
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
// BOUND-DAG: remark: bound to gpu.launch: loop dimension 1
// BOUND-DAG: remark: bound to gpu.launch: one iteration per block
// CHECK: ex 
// CHECK: ey 
// CHECK: hz 
// BUNDLE: --entry kernel --shape 0=1024x1024 --shape 1=1024x1024 --shape 2=1024x1024 --shape 3=10

func.func @kernel(%ex: memref<?x?xf32>, %ey: memref<?x?xf32>, %hz: memref<?x?xf32>, %fict: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %c07 = arith.constant 0.7 : f32
  %nx = memref.dim %ex, %c0 : memref<?x?xf32>
  %ny = memref.dim %ex, %c1 : memref<?x?xf32>
  %tmax = memref.dim %fict, %c0 : memref<?xf32>
  affine.for %t = 0 to %tmax {
    affine.for %j = 0 to %ny {
      %f = affine.load %fict[%t] : memref<?xf32>
      affine.store %f, %ey[0, %j] : memref<?x?xf32>
    }
    affine.for %i = 1 to %nx {
      affine.for %j = 0 to %ny {
        %e = affine.load %ey[%i, %j] : memref<?x?xf32>
        %h0 = affine.load %hz[%i, %j] : memref<?x?xf32>
        %h1 = affine.load %hz[%i - 1, %j] : memref<?x?xf32>
        %d = arith.subf %h0, %h1 : f32
        %m = arith.mulf %half, %d : f32
        %r = arith.subf %e, %m : f32
        affine.store %r, %ey[%i, %j] : memref<?x?xf32>
      }
    }
    affine.for %i = 0 to %nx {
      affine.for %j = 1 to %ny {
        %e = affine.load %ex[%i, %j] : memref<?x?xf32>
        %h0 = affine.load %hz[%i, %j] : memref<?x?xf32>
        %h1 = affine.load %hz[%i, %j - 1] : memref<?x?xf32>
        %d = arith.subf %h0, %h1 : f32
        %m = arith.mulf %half, %d : f32
        %r = arith.subf %e, %m : f32
        affine.store %r, %ex[%i, %j] : memref<?x?xf32>
      }
    }
    affine.for %i = 0 to affine_map<()[s0] -> (s0 - 1)>()[%nx] {
      affine.for %j = 0 to affine_map<()[s0] -> (s0 - 1)>()[%ny] {
        %h = affine.load %hz[%i, %j] : memref<?x?xf32>
        %x1 = affine.load %ex[%i, %j + 1] : memref<?x?xf32>
        %x0 = affine.load %ex[%i, %j] : memref<?x?xf32>
        %y1 = affine.load %ey[%i + 1, %j] : memref<?x?xf32>
        %y0 = affine.load %ey[%i, %j] : memref<?x?xf32>
        %dx = arith.subf %x1, %x0 : f32
        %s0 = arith.addf %dx, %y1 : f32
        %s1 = arith.subf %s0, %y0 : f32
        %m = arith.mulf %c07, %s1 : f32
        %r = arith.subf %h, %m : f32
        affine.store %r, %hz[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nx = arith.constant 19 : index
  %ny = arith.constant 23 : index
  %tmax = arith.constant 5 : index
  %ex = memref.alloc(%nx, %ny) : memref<?x?xf32>
  scf.for %ex_i0 = %c0 to %nx step %c1 {
    scf.for %ex_i1 = %c0 to %ny step %c1 {
      %ex_w0 = arith.constant 7 : index
      %ex_p0 = arith.muli %ex_i0, %ex_w0 : index
      %ex_w1 = arith.constant 11 : index
      %ex_p1 = arith.muli %ex_i1, %ex_w1 : index
      %ex_s1 = arith.addi %ex_p0, %ex_p1 : index
      %ex_m = arith.constant 5 : index
      %ex_r = arith.remui %ex_s1, %ex_m : index
      %ex_ri = arith.index_cast %ex_r : index to i32
      %ex_rf = arith.sitofp %ex_ri : i32 to f32
      %ex_h = arith.constant 2.0 : f32
      %ex_v = arith.subf %ex_rf, %ex_h : f32
      memref.store %ex_v, %ex[%ex_i0, %ex_i1] : memref<?x?xf32>
    }
  }
  %ey = memref.alloc(%nx, %ny) : memref<?x?xf32>
  scf.for %ey_i0 = %c0 to %nx step %c1 {
    scf.for %ey_i1 = %c0 to %ny step %c1 {
      %ey_w0 = arith.constant 7 : index
      %ey_p0 = arith.muli %ey_i0, %ey_w0 : index
      %ey_w1 = arith.constant 11 : index
      %ey_p1 = arith.muli %ey_i1, %ey_w1 : index
      %ey_s1 = arith.addi %ey_p0, %ey_p1 : index
      %ey_m = arith.constant 3 : index
      %ey_r = arith.remui %ey_s1, %ey_m : index
      %ey_ri = arith.index_cast %ey_r : index to i32
      %ey_rf = arith.sitofp %ey_ri : i32 to f32
      %ey_h = arith.constant 1.0 : f32
      %ey_v = arith.subf %ey_rf, %ey_h : f32
      memref.store %ey_v, %ey[%ey_i0, %ey_i1] : memref<?x?xf32>
    }
  }
  %hz = memref.alloc(%nx, %ny) : memref<?x?xf32>
  scf.for %hz_i0 = %c0 to %nx step %c1 {
    scf.for %hz_i1 = %c0 to %ny step %c1 {
      %hz_w0 = arith.constant 7 : index
      %hz_p0 = arith.muli %hz_i0, %hz_w0 : index
      %hz_w1 = arith.constant 11 : index
      %hz_p1 = arith.muli %hz_i1, %hz_w1 : index
      %hz_s1 = arith.addi %hz_p0, %hz_p1 : index
      %hz_m = arith.constant 4 : index
      %hz_r = arith.remui %hz_s1, %hz_m : index
      %hz_ri = arith.index_cast %hz_r : index to i32
      %hz_rf = arith.sitofp %hz_ri : i32 to f32
      %hz_h = arith.constant 2.0 : f32
      %hz_v = arith.subf %hz_rf, %hz_h : f32
      memref.store %hz_v, %hz[%hz_i0, %hz_i1] : memref<?x?xf32>
    }
  }
  %fict = memref.alloc(%tmax) : memref<?xf32>
  scf.for %fict_i0 = %c0 to %tmax step %c1 {
    %fict_w0 = arith.constant 7 : index
    %fict_p0 = arith.muli %fict_i0, %fict_w0 : index
    %fict_m = arith.constant 5 : index
    %fict_r = arith.remui %fict_p0, %fict_m : index
    %fict_ri = arith.index_cast %fict_r : index to i32
    %fict_rf = arith.sitofp %fict_ri : i32 to f32
    %fict_h = arith.constant 2.0 : f32
    %fict_v = arith.subf %fict_rf, %fict_h : f32
    memref.store %fict_v, %fict[%fict_i0] : memref<?xf32>
  }
  call @kernel(%ex, %ey, %hz, %fict) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  %c7 = arith.constant 7 : index
  // ex: each element is rounded to a multiple of 1/64 first, so the
  // terms are integers and the sum is exact in any order (the mapped
  // program sums this loop as a parallel reduction).
  %ex_scale = arith.constant 64.0 : f32
  %ex_zero = arith.constant 0.0 : f32
  %ex_acc0 = scf.for %ex_k0 = %c0 to %nx step %c1 iter_args(%ex_a0 = %ex_zero) -> f32 {
    %ex_acc1 = scf.for %ex_k1 = %c0 to %ny step %c1 iter_args(%ex_a1 = %ex_a0) -> f32 {
      %ex_wt0 = arith.constant 3 : index
      %ex_q0 = arith.muli %ex_k0, %ex_wt0 : index
      %ex_wt1 = arith.constant 2 : index
      %ex_q1 = arith.muli %ex_k1, %ex_wt1 : index
      %ex_qs1 = arith.addi %ex_q0, %ex_q1 : index
      %ex_cv = memref.load %ex[%ex_k0, %ex_k1] : memref<?x?xf32>
      %ex_cw = arith.remui %ex_qs1, %c7 : index
      %ex_cw1 = arith.addi %ex_cw, %c1 : index
      %ex_cwi = arith.index_cast %ex_cw1 : index to i32
      %ex_cwf = arith.sitofp %ex_cwi : i32 to f32
      %ex_cs = arith.mulf %ex_cv, %ex_scale : f32
      %ex_cr = math.roundeven %ex_cs : f32
      %ex_cprod = arith.mulf %ex_cr, %ex_cwf : f32
      %ex_csum = arith.addf %ex_a1, %ex_cprod : f32
      scf.yield %ex_csum : f32
    }
    scf.yield %ex_acc1 : f32
  }
  vector.print str "ex "
  vector.print %ex_acc0 : f32
  // ey: each element is rounded to a multiple of 1/64 first, so the
  // terms are integers and the sum is exact in any order (the mapped
  // program sums this loop as a parallel reduction).
  %ey_scale = arith.constant 64.0 : f32
  %ey_zero = arith.constant 0.0 : f32
  %ey_acc0 = scf.for %ey_k0 = %c0 to %nx step %c1 iter_args(%ey_a0 = %ey_zero) -> f32 {
    %ey_acc1 = scf.for %ey_k1 = %c0 to %ny step %c1 iter_args(%ey_a1 = %ey_a0) -> f32 {
      %ey_wt0 = arith.constant 3 : index
      %ey_q0 = arith.muli %ey_k0, %ey_wt0 : index
      %ey_wt1 = arith.constant 2 : index
      %ey_q1 = arith.muli %ey_k1, %ey_wt1 : index
      %ey_qs1 = arith.addi %ey_q0, %ey_q1 : index
      %ey_cv = memref.load %ey[%ey_k0, %ey_k1] : memref<?x?xf32>
      %ey_cw = arith.remui %ey_qs1, %c7 : index
      %ey_cw1 = arith.addi %ey_cw, %c1 : index
      %ey_cwi = arith.index_cast %ey_cw1 : index to i32
      %ey_cwf = arith.sitofp %ey_cwi : i32 to f32
      %ey_cs = arith.mulf %ey_cv, %ey_scale : f32
      %ey_cr = math.roundeven %ey_cs : f32
      %ey_cprod = arith.mulf %ey_cr, %ey_cwf : f32
      %ey_csum = arith.addf %ey_a1, %ey_cprod : f32
      scf.yield %ey_csum : f32
    }
    scf.yield %ey_acc1 : f32
  }
  vector.print str "ey "
  vector.print %ey_acc0 : f32
  // hz: each element is rounded to a multiple of 1/64 first, so the
  // terms are integers and the sum is exact in any order (the mapped
  // program sums this loop as a parallel reduction).
  %hz_scale = arith.constant 64.0 : f32
  %hz_zero = arith.constant 0.0 : f32
  %hz_acc0 = scf.for %hz_k0 = %c0 to %nx step %c1 iter_args(%hz_a0 = %hz_zero) -> f32 {
    %hz_acc1 = scf.for %hz_k1 = %c0 to %ny step %c1 iter_args(%hz_a1 = %hz_a0) -> f32 {
      %hz_wt0 = arith.constant 3 : index
      %hz_q0 = arith.muli %hz_k0, %hz_wt0 : index
      %hz_wt1 = arith.constant 2 : index
      %hz_q1 = arith.muli %hz_k1, %hz_wt1 : index
      %hz_qs1 = arith.addi %hz_q0, %hz_q1 : index
      %hz_cv = memref.load %hz[%hz_k0, %hz_k1] : memref<?x?xf32>
      %hz_cw = arith.remui %hz_qs1, %c7 : index
      %hz_cw1 = arith.addi %hz_cw, %c1 : index
      %hz_cwi = arith.index_cast %hz_cw1 : index to i32
      %hz_cwf = arith.sitofp %hz_cwi : i32 to f32
      %hz_cs = arith.mulf %hz_cv, %hz_scale : f32
      %hz_cr = math.roundeven %hz_cs : f32
      %hz_cprod = arith.mulf %hz_cr, %hz_cwf : f32
      %hz_csum = arith.addf %hz_a1, %hz_cprod : f32
      scf.yield %hz_csum : f32
    }
    scf.yield %hz_acc1 : f32
  }
  vector.print str "hz "
  vector.print %hz_acc0 : f32
  return
}
