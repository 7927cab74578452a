// PolyBench cholesky: in-place Cholesky decomposition A = L L^T of a symmetric positive definite matrix (lower triangle).
// Source: PolyBench/C 4.2, linear-algebra/solvers/cholesky (kernel_cholesky), in its right-looking form
// Translated to MLIR by hand as a user writes it: a host scf.for over the column k (each step needs the previous one), in it the square root of the pivot stored from the host loop, an scf.parallel over the rows i > k dividing column k by it, and an scf.parallel over i > k around an scf.parallel over k < j <= i for the update of the trailing lower triangle.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// BOUND-DAG: remark: bound to gpu.launch
// BOUND-DAG: remark: runs on one GPU thread
// CHECK: A 
// BUNDLE: --entry kernel --shape 0=1024x1024 --input 0=@spd

func.func @kernel(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  scf.for %k = %c0 to %n step %c1 {
    %akk = memref.load %A[%k, %k] : memref<?x?xf32>
    %lkk = math.sqrt %akk : f32
    memref.store %lkk, %A[%k, %k] : memref<?x?xf32>
    %k1 = arith.addi %k, %c1 : index
    // L[i][k] = A[i][k] / L[k][k].
    scf.parallel (%i) = (%k1) to (%n) step (%c1) {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %p = memref.load %A[%k, %k] : memref<?x?xf32>
      %l = arith.divf %a, %p : f32
      memref.store %l, %A[%i, %k] : memref<?x?xf32>
    }
    // The trailing lower triangle: A[i][j] -= L[i][k] L[j][k], k < j <= i.
    scf.parallel (%i) = (%k1) to (%n) step (%c1) {
      %i1 = arith.addi %i, %c1 : index
      scf.parallel (%j) = (%k1) to (%i1) step (%c1) {
        %li = memref.load %A[%i, %k] : memref<?x?xf32>
        %lj = memref.load %A[%j, %k] : memref<?x?xf32>
        %a = memref.load %A[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %li, %lj : f32
        %d = arith.subf %a, %p : f32
        memref.store %d, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 29 : index
  %A = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %n step %c1 {
    scf.for %A_i1 = %c0 to %n step %c1 {
      %A_s = arith.addi %A_i0, %A_i1 : index
      %A_m = arith.constant 3 : index
      %A_r = arith.remui %A_s, %A_m : index
      %A_ri = arith.index_cast %A_r : index to i32
      %A_rf = arith.sitofp %A_ri : i32 to f32
      %A_h = arith.constant 1.0 : f32
      %A_o = arith.subf %A_rf, %A_h : f32
      %A_eq = arith.cmpi eq, %A_i0, %A_i1 : index
      %A_dg = arith.constant 29.0 : f32
      %A_z = arith.constant 0.0 : f32
      %A_d = arith.select %A_eq, %A_dg, %A_z : f32
      %A_v = arith.addf %A_o, %A_d : f32
      memref.store %A_v, %A[%A_i0, %A_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%A) : (memref<?x?xf32>) -> ()
  %A_zero = arith.constant 0.0 : f32
  %A_sum = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %A_zero) -> f32 {
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
    scf.yield %sum : f32
  }
   scf.yield %r : f32
  }
  %A_scale = arith.constant 1000.0 : f32
  %A_scaled = arith.mulf %A_sum, %A_scale : f32
  %A_round = math.roundeven %A_scaled : f32
  vector.print str "A "
  vector.print %A_round : f32
  return
}
