// PolyBench heat-3d: a 7-point 3-D heat stencil, back and forth, for T steps, as affine loops.
// Source: PolyBench/C 4.2, stencils/heat-3d (kernel_heat_3d)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes the i, j and k loops of both
// sweeps affine.parallel; the time loop stays an affine.for.
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
// BOUND-DAG: remark: bound to gpu.launch: one iteration per block
// CHECK: A 
// CHECK: B 
// BUNDLE: --entry kernel --shape 0=128x128x128 --shape 1=128x128x128

func.func @kernel(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %eighth = arith.constant 0.125 : f32
  %two = arith.constant 2.0 : f32
  %n = memref.dim %A, %c0 : memref<?x?x?xf32>
  affine.for %t = 1 to 6 {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        affine.for %k = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
          %c = affine.load %A[%i, %j, %k] : memref<?x?x?xf32>
          %c2 = arith.mulf %two, %c : f32
          %ip = affine.load %A[%i + 1, %j, %k] : memref<?x?x?xf32>
          %im = affine.load %A[%i - 1, %j, %k] : memref<?x?x?xf32>
          %x0 = arith.subf %ip, %c2 : f32
          %x1 = arith.addf %x0, %im : f32
          %x = arith.mulf %eighth, %x1 : f32
          %jp = affine.load %A[%i, %j + 1, %k] : memref<?x?x?xf32>
          %jm = affine.load %A[%i, %j - 1, %k] : memref<?x?x?xf32>
          %y0 = arith.subf %jp, %c2 : f32
          %y1 = arith.addf %y0, %jm : f32
          %y = arith.mulf %eighth, %y1 : f32
          %kp = affine.load %A[%i, %j, %k + 1] : memref<?x?x?xf32>
          %km = affine.load %A[%i, %j, %k - 1] : memref<?x?x?xf32>
          %z0 = arith.subf %kp, %c2 : f32
          %z1 = arith.addf %z0, %km : f32
          %z = arith.mulf %eighth, %z1 : f32
          %s0 = arith.addf %x, %y : f32
          %s1 = arith.addf %s0, %z : f32
          %s2 = arith.addf %s1, %c : f32
          affine.store %s2, %B[%i, %j, %k] : memref<?x?x?xf32>
        }
      }
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        affine.for %k = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
          %c = affine.load %B[%i, %j, %k] : memref<?x?x?xf32>
          %c2 = arith.mulf %two, %c : f32
          %ip = affine.load %B[%i + 1, %j, %k] : memref<?x?x?xf32>
          %im = affine.load %B[%i - 1, %j, %k] : memref<?x?x?xf32>
          %x0 = arith.subf %ip, %c2 : f32
          %x1 = arith.addf %x0, %im : f32
          %x = arith.mulf %eighth, %x1 : f32
          %jp = affine.load %B[%i, %j + 1, %k] : memref<?x?x?xf32>
          %jm = affine.load %B[%i, %j - 1, %k] : memref<?x?x?xf32>
          %y0 = arith.subf %jp, %c2 : f32
          %y1 = arith.addf %y0, %jm : f32
          %y = arith.mulf %eighth, %y1 : f32
          %kp = affine.load %B[%i, %j, %k + 1] : memref<?x?x?xf32>
          %km = affine.load %B[%i, %j, %k - 1] : memref<?x?x?xf32>
          %z0 = arith.subf %kp, %c2 : f32
          %z1 = arith.addf %z0, %km : f32
          %z = arith.mulf %eighth, %z1 : f32
          %s0 = arith.addf %x, %y : f32
          %s1 = arith.addf %s0, %z : f32
          %s2 = arith.addf %s1, %c : f32
          affine.store %s2, %A[%i, %j, %k] : memref<?x?x?xf32>
        }
      }
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 9 : index
  %A = memref.alloc(%n, %n, %n) : memref<?x?x?xf32>
  scf.for %A_i0 = %c0 to %n step %c1 {
    scf.for %A_i1 = %c0 to %n step %c1 {
      scf.for %A_i2 = %c0 to %n step %c1 {
        %A_w0 = arith.constant 7 : index
        %A_p0 = arith.muli %A_i0, %A_w0 : index
        %A_w1 = arith.constant 11 : index
        %A_p1 = arith.muli %A_i1, %A_w1 : index
        %A_s1 = arith.addi %A_p0, %A_p1 : index
        %A_w2 = arith.constant 13 : index
        %A_p2 = arith.muli %A_i2, %A_w2 : index
        %A_s2 = arith.addi %A_s1, %A_p2 : index
        %A_m = arith.constant 5 : index
        %A_r = arith.remui %A_s2, %A_m : index
        %A_ri = arith.index_cast %A_r : index to i32
        %A_rf = arith.sitofp %A_ri : i32 to f32
        %A_h = arith.constant 2.0 : f32
        %A_v = arith.subf %A_rf, %A_h : f32
        memref.store %A_v, %A[%A_i0, %A_i1, %A_i2] : memref<?x?x?xf32>
      }
    }
  }
  %B = memref.alloc(%n, %n, %n) : memref<?x?x?xf32>
  scf.for %B_i0 = %c0 to %n step %c1 {
    scf.for %B_i1 = %c0 to %n step %c1 {
      scf.for %B_i2 = %c0 to %n step %c1 {
        %B_w0 = arith.constant 7 : index
        %B_p0 = arith.muli %B_i0, %B_w0 : index
        %B_w1 = arith.constant 11 : index
        %B_p1 = arith.muli %B_i1, %B_w1 : index
        %B_s1 = arith.addi %B_p0, %B_p1 : index
        %B_w2 = arith.constant 13 : index
        %B_p2 = arith.muli %B_i2, %B_w2 : index
        %B_s2 = arith.addi %B_s1, %B_p2 : index
        %B_m = arith.constant 3 : index
        %B_r = arith.remui %B_s2, %B_m : index
        %B_ri = arith.index_cast %B_r : index to i32
        %B_rf = arith.sitofp %B_ri : i32 to f32
        %B_h = arith.constant 1.0 : f32
        %B_v = arith.subf %B_rf, %B_h : f32
        memref.store %B_v, %B[%B_i0, %B_i1, %B_i2] : memref<?x?x?xf32>
      }
    }
  }
  call @kernel(%A, %B) : (memref<?x?x?xf32>, memref<?x?x?xf32>) -> ()
  %c7 = arith.constant 7 : index
  // A: each element is rounded to a multiple of 1/1024 first, so the
  // terms are integers and the sum is exact in any order (the mapped
  // program sums this loop as a parallel reduction).
  %A_scale = arith.constant 1024.0 : f32
  %A_zero = arith.constant 0.0 : f32
  %A_acc0 = scf.for %A_k0 = %c0 to %n step %c1 iter_args(%A_a0 = %A_zero) -> f32 {
    %A_acc1 = scf.for %A_k1 = %c0 to %n step %c1 iter_args(%A_a1 = %A_a0) -> f32 {
      %A_acc2 = scf.for %A_k2 = %c0 to %n step %c1 iter_args(%A_a2 = %A_a1) -> f32 {
        %A_wt0 = arith.constant 3 : index
        %A_q0 = arith.muli %A_k0, %A_wt0 : index
        %A_wt1 = arith.constant 2 : index
        %A_q1 = arith.muli %A_k1, %A_wt1 : index
        %A_qs1 = arith.addi %A_q0, %A_q1 : index
        %A_wt2 = arith.constant 5 : index
        %A_q2 = arith.muli %A_k2, %A_wt2 : index
        %A_qs2 = arith.addi %A_qs1, %A_q2 : index
        %A_cv = memref.load %A[%A_k0, %A_k1, %A_k2] : memref<?x?x?xf32>
        %A_cw = arith.remui %A_qs2, %c7 : index
        %A_cw1 = arith.addi %A_cw, %c1 : index
        %A_cwi = arith.index_cast %A_cw1 : index to i32
        %A_cwf = arith.sitofp %A_cwi : i32 to f32
        %A_cs = arith.mulf %A_cv, %A_scale : f32
        %A_cr = math.roundeven %A_cs : f32
        %A_cprod = arith.mulf %A_cr, %A_cwf : f32
        %A_csum = arith.addf %A_a2, %A_cprod : f32
        scf.yield %A_csum : f32
      }
      scf.yield %A_acc2 : f32
    }
    scf.yield %A_acc1 : f32
  }
  vector.print str "A "
  vector.print %A_acc0 : f32
  // B: each element is rounded to a multiple of 1/1024 first, so the
  // terms are integers and the sum is exact in any order (the mapped
  // program sums this loop as a parallel reduction).
  %B_scale = arith.constant 1024.0 : f32
  %B_zero = arith.constant 0.0 : f32
  %B_acc0 = scf.for %B_k0 = %c0 to %n step %c1 iter_args(%B_a0 = %B_zero) -> f32 {
    %B_acc1 = scf.for %B_k1 = %c0 to %n step %c1 iter_args(%B_a1 = %B_a0) -> f32 {
      %B_acc2 = scf.for %B_k2 = %c0 to %n step %c1 iter_args(%B_a2 = %B_a1) -> f32 {
        %B_wt0 = arith.constant 3 : index
        %B_q0 = arith.muli %B_k0, %B_wt0 : index
        %B_wt1 = arith.constant 2 : index
        %B_q1 = arith.muli %B_k1, %B_wt1 : index
        %B_qs1 = arith.addi %B_q0, %B_q1 : index
        %B_wt2 = arith.constant 5 : index
        %B_q2 = arith.muli %B_k2, %B_wt2 : index
        %B_qs2 = arith.addi %B_qs1, %B_q2 : index
        %B_cv = memref.load %B[%B_k0, %B_k1, %B_k2] : memref<?x?x?xf32>
        %B_cw = arith.remui %B_qs2, %c7 : index
        %B_cw1 = arith.addi %B_cw, %c1 : index
        %B_cwi = arith.index_cast %B_cw1 : index to i32
        %B_cwf = arith.sitofp %B_cwi : i32 to f32
        %B_cs = arith.mulf %B_cv, %B_scale : f32
        %B_cr = math.roundeven %B_cs : f32
        %B_cprod = arith.mulf %B_cr, %B_cwf : f32
        %B_csum = arith.addf %B_a2, %B_cprod : f32
        scf.yield %B_csum : f32
      }
      scf.yield %B_acc2 : f32
    }
    scf.yield %B_acc1 : f32
  }
  vector.print str "B "
  vector.print %B_acc0 : f32
  return
}
