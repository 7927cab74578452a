// PolyBench gramschmidt: QR decomposition by modified Gram-Schmidt, A = Q R.
// Source: PolyBench/C 4.2, linear-algebra/solvers/gramschmidt (kernel_gramschmidt)
// Translated to MLIR by hand as a user writes it: a host scf.for over the columns k (each step needs the previous one), in it the norm of column k as an scf.for with iter_args (a full reduction), an scf.parallel over the rows for Q[:, k], and an scf.parallel over the columns j > k with an iter_args sum for R[k][j] and an scf.for updating A[:, j].
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// The sums for R[k][j] are split over a block's rows of threads (a column
// reduction), which rounds them in another order: the checksums must agree
// to 1e-4, not to the last digit.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: %python %S/Inputs/checksums-close.py %t.ref %t.default --rtol 1e-4
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: %python %S/Inputs/checksums-close.py %t.ref %t.cover --rtol 1e-4
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: %python %S/Inputs/checksums-close.py %t.ref %t.shape --rtol 1e-4
// BOUND-DAG: remark: reduction mapped
// BOUND-DAG: remark: column reduction mapped: {{.*}}, then the rows of threads share the loop that follows the reduction
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: A 
// CHECK: R 
// CHECK: Q 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512x512

func.func @kernel(%A: memref<?x?xf32>, %R: memref<?x?xf32>, %Q: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  scf.for %k = %c0 to %n step %c1 {
    // nrm = sum_i A[i][k]^2: a full reduction.
    %nrm = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %q = arith.mulf %a, %a : f32
      %t = arith.addf %acc, %q : f32
      scf.yield %t : f32
    }
    %rkk = math.sqrt %nrm : f32
    memref.store %rkk, %R[%k, %k] : memref<?x?xf32>
    scf.parallel (%i) = (%c0) to (%m) step (%c1) {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %r = memref.load %R[%k, %k] : memref<?x?xf32>
      %q = arith.divf %a, %r : f32
      memref.store %q, %Q[%i, %k] : memref<?x?xf32>
    }
    %k1 = arith.addi %k, %c1 : index
    scf.parallel (%j) = (%k1) to (%n) step (%c1) {
      %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
        %q = memref.load %Q[%i, %k] : memref<?x?xf32>
        %a = memref.load %A[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %q, %a : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      memref.store %s, %R[%k, %j] : memref<?x?xf32>
      scf.for %i = %c0 to %m step %c1 {
        %a = memref.load %A[%i, %j] : memref<?x?xf32>
        %q = memref.load %Q[%i, %k] : memref<?x?xf32>
        %p = arith.mulf %q, %s : f32
        %d = arith.subf %a, %p : f32
        memref.store %d, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

func.func @main() {
  // The checksums fold in loop order (a store each iteration keeps a
  // loop sequential): the mapped program may reassociate float sums,
  // which would show in the printed digits.
  %order = memref.alloca() : memref<f32>
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
      %A_o = arith.subf %A_rf, %A_h : f32
      %A_eq = arith.cmpi eq, %A_i0, %A_i1 : index
      %A_dg = arith.constant 8.0 : f32
      %A_z = arith.constant 0.0 : f32
      %A_d = arith.select %A_eq, %A_dg, %A_z : f32
      %A_v = arith.addf %A_o, %A_d : f32
      memref.store %A_v, %A[%A_i0, %A_i1] : memref<?x?xf32>
    }
  }
  %R = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %R_i0 = %c0 to %n step %c1 {
    scf.for %R_i1 = %c0 to %n step %c1 {
      %R_w0 = arith.constant 3 : index
      %R_p0 = arith.muli %R_i0, %R_w0 : index
      %R_w1 = arith.constant 5 : index
      %R_p1 = arith.muli %R_i1, %R_w1 : index
      %R_s1 = arith.addi %R_p0, %R_p1 : index
      %R_m = arith.constant 3 : index
      %R_r = arith.remui %R_s1, %R_m : index
      %R_ri = arith.index_cast %R_r : index to i32
      %R_rf = arith.sitofp %R_ri : i32 to f32
      %R_h = arith.constant 1.0 : f32
      %R_v = arith.subf %R_rf, %R_h : f32
      memref.store %R_v, %R[%R_i0, %R_i1] : memref<?x?xf32>
    }
  }
  %Q = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %Q_i0 = %c0 to %m step %c1 {
    scf.for %Q_i1 = %c0 to %n step %c1 {
      %Q_w0 = arith.constant 3 : index
      %Q_p0 = arith.muli %Q_i0, %Q_w0 : index
      %Q_w1 = arith.constant 5 : index
      %Q_p1 = arith.muli %Q_i1, %Q_w1 : index
      %Q_s1 = arith.addi %Q_p0, %Q_p1 : index
      %Q_m = arith.constant 3 : index
      %Q_r = arith.remui %Q_s1, %Q_m : index
      %Q_ri = arith.index_cast %Q_r : index to i32
      %Q_rf = arith.sitofp %Q_ri : i32 to f32
      %Q_h = arith.constant 1.0 : f32
      %Q_v = arith.subf %Q_rf, %Q_h : f32
      memref.store %Q_v, %Q[%Q_i0, %Q_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%A, %R, %Q) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %A_zero = arith.constant 0.0 : f32
  %A_sum = scf.for %i = %c0 to %m step %c1 iter_args(%a0 = %A_zero) -> f32 {
   %r = scf.for %j = %c0 to %n step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %A[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %n : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
   memref.store %r, %order[] : memref<f32>
   scf.yield %r : f32
  }
  %A_scale = arith.constant 1000.0 : f32
  %A_scaled = arith.mulf %A_sum, %A_scale : f32
  %A_round = math.roundeven %A_scaled : f32
  vector.print str "A "
  vector.print %A_round : f32
  %R_zero = arith.constant 0.0 : f32
  %R_sum = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %R_zero) -> f32 {
   %r = scf.for %j = %c0 to %n step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %R[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %n : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
   memref.store %r, %order[] : memref<f32>
   scf.yield %r : f32
  }
  %R_scale = arith.constant 1000.0 : f32
  %R_scaled = arith.mulf %R_sum, %R_scale : f32
  %R_round = math.roundeven %R_scaled : f32
  vector.print str "R "
  vector.print %R_round : f32
  %Q_zero = arith.constant 0.0 : f32
  %Q_sum = scf.for %i = %c0 to %m step %c1 iter_args(%a0 = %Q_zero) -> f32 {
   %r = scf.for %j = %c0 to %n step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %Q[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %n : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
   memref.store %r, %order[] : memref<f32>
   scf.yield %r : f32
  }
  %Q_scale = arith.constant 1000.0 : f32
  %Q_scaled = arith.mulf %Q_sum, %Q_scale : f32
  %Q_round = math.roundeven %Q_scaled : f32
  vector.print str "Q "
  vector.print %Q_round : f32
  return
}
