// PolyBench doitgen: A[r][q][:] = A[r][q][:] C4, a multiresolution analysis kernel, as affine loops.
// Source: PolyBench/C 4.2, linear-algebra/kernels/doitgen (kernel_doitgen)
// Translated to MLIR by hand as a user writes it: the C loop nest as written, each loop an
// affine.for and each array access an affine.load/affine.store, as
// Polygeist raises it; upstream's -affine-parallelize finds the parallel
// loops before ThreadBind maps them.
// affine-parallelize="parallel-reductions=1" makes both p loops affine.parallel;
// the r and q loops (every (r, q) reuses the scratch array sum) and the s loop
// (sum[p] accumulated in memory) stay affine.for.
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
// CHECK: A 
// CHECK: sum 
// BUNDLE: --entry kernel --shape 0=128x128x128 --shape 1=128x128 --shape 2=128

func.func @kernel(%A: memref<?x?x?xf32>, %C4: memref<?x?xf32>, %sum: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %nr = memref.dim %A, %c0 : memref<?x?x?xf32>
  %nq = memref.dim %A, %c1 : memref<?x?x?xf32>
  %np = memref.dim %A, %c2 : memref<?x?x?xf32>
  affine.for %r = 0 to %nr {
    affine.for %q = 0 to %nq {
      affine.for %p = 0 to %np {
        affine.store %zero, %sum[%p] : memref<?xf32>
        affine.for %s = 0 to %np {
          %a = affine.load %A[%r, %q, %s] : memref<?x?x?xf32>
          %c = affine.load %C4[%s, %p] : memref<?x?xf32>
          %pr = arith.mulf %a, %c : f32
          %o = affine.load %sum[%p] : memref<?xf32>
          %t = arith.addf %o, %pr : f32
          affine.store %t, %sum[%p] : memref<?xf32>
        }
      }
      affine.for %p = 0 to %np {
        %v = affine.load %sum[%p] : memref<?xf32>
        affine.store %v, %A[%r, %q, %p] : memref<?x?x?xf32>
      }
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nr = arith.constant 7 : index
  %nq = arith.constant 9 : index
  %np = arith.constant 11 : index
  %A = memref.alloc(%nr, %nq, %np) : memref<?x?x?xf32>
  scf.for %A_i0 = %c0 to %nr step %c1 {
    scf.for %A_i1 = %c0 to %nq step %c1 {
      scf.for %A_i2 = %c0 to %np step %c1 {
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
  %C4 = memref.alloc(%np, %np) : memref<?x?xf32>
  scf.for %C4_i0 = %c0 to %np step %c1 {
    scf.for %C4_i1 = %c0 to %np step %c1 {
      %C4_w0 = arith.constant 7 : index
      %C4_p0 = arith.muli %C4_i0, %C4_w0 : index
      %C4_w1 = arith.constant 11 : index
      %C4_p1 = arith.muli %C4_i1, %C4_w1 : index
      %C4_s1 = arith.addi %C4_p0, %C4_p1 : index
      %C4_m = arith.constant 3 : index
      %C4_r = arith.remui %C4_s1, %C4_m : index
      %C4_ri = arith.index_cast %C4_r : index to i32
      %C4_rf = arith.sitofp %C4_ri : i32 to f32
      %C4_h = arith.constant 1.0 : f32
      %C4_v = arith.subf %C4_rf, %C4_h : f32
      memref.store %C4_v, %C4[%C4_i0, %C4_i1] : memref<?x?xf32>
    }
  }
  %sum = memref.alloc(%np) : memref<?xf32>
  scf.for %sum_i0 = %c0 to %np step %c1 {
    %sum_w0 = arith.constant 7 : index
    %sum_p0 = arith.muli %sum_i0, %sum_w0 : index
    %sum_m = arith.constant 3 : index
    %sum_r = arith.remui %sum_p0, %sum_m : index
    %sum_ri = arith.index_cast %sum_r : index to i32
    %sum_rf = arith.sitofp %sum_ri : i32 to f32
    %sum_h = arith.constant 1.0 : f32
    %sum_v = arith.subf %sum_rf, %sum_h : f32
    memref.store %sum_v, %sum[%sum_i0] : memref<?xf32>
  }
  call @kernel(%A, %C4, %sum) : (memref<?x?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  %c7 = arith.constant 7 : index
  %A_zero = arith.constant 0.0 : f32
  %A_acc0 = scf.for %A_k0 = %c0 to %nr step %c1 iter_args(%A_a0 = %A_zero) -> f32 {
    %A_acc1 = scf.for %A_k1 = %c0 to %nq step %c1 iter_args(%A_a1 = %A_a0) -> f32 {
      %A_acc2 = scf.for %A_k2 = %c0 to %np step %c1 iter_args(%A_a2 = %A_a1) -> f32 {
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
        %A_cprod = arith.mulf %A_cv, %A_cwf : f32
        %A_csum = arith.addf %A_a2, %A_cprod : f32
        scf.yield %A_csum : f32
      }
      scf.yield %A_acc2 : f32
    }
    scf.yield %A_acc1 : f32
  }
  vector.print str "A "
  vector.print %A_acc0 : f32
  %sum_zero = arith.constant 0.0 : f32
  %sum_acc0 = scf.for %sum_k0 = %c0 to %np step %c1 iter_args(%sum_a0 = %sum_zero) -> f32 {
    %sum_wt0 = arith.constant 3 : index
    %sum_q0 = arith.muli %sum_k0, %sum_wt0 : index
    %sum_cv = memref.load %sum[%sum_k0] : memref<?xf32>
    %sum_cw = arith.remui %sum_q0, %c7 : index
    %sum_cw1 = arith.addi %sum_cw, %c1 : index
    %sum_cwi = arith.index_cast %sum_cw1 : index to i32
    %sum_cwf = arith.sitofp %sum_cwi : i32 to f32
    %sum_cprod = arith.mulf %sum_cv, %sum_cwf : f32
    %sum_csum = arith.addf %sum_a0, %sum_cprod : f32
    scf.yield %sum_csum : f32
  }
  vector.print str "sum "
  vector.print %sum_acc0 : f32
  return
}
