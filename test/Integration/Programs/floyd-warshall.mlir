// PolyBench floyd-warshall: all-pairs shortest paths, relaxing every pair through each vertex k in turn.
// Source: PolyBench/C 4.2, medley/floyd-warshall (kernel_floyd_warshall), with PolyBench's initial graph
// Translated to MLIR by hand as a user writes it: a host scf.for over the intermediate vertex k (each step needs the previous one) around an scf.parallel over (i, j); row k and column k do not change during step k (path[k][k] >= 0), so the pairs are independent.
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
// CHECK: path 
// BUNDLE: --entry kernel --shape 0=1024x1024 --input 0=@nonneg

func.func @kernel(%path: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %path, %c0 : memref<?x?xf32>
  scf.for %k = %c0 to %n step %c1 {
    scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
      %ij = memref.load %path[%i, %j] : memref<?x?xf32>
      %ik = memref.load %path[%i, %k] : memref<?x?xf32>
      %kj = memref.load %path[%k, %j] : memref<?x?xf32>
      %via = arith.addf %ik, %kj : f32
      %lt = arith.cmpf olt, %ij, %via : f32
      %r = arith.select %lt, %ij, %via : f32
      memref.store %r, %path[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 31 : index
  %path = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %path_i0 = %c0 to %n step %c1 {
    scf.for %path_i1 = %c0 to %n step %c1 {
      %path_p = arith.muli %path_i0, %path_i1 : index
      %path_c7 = arith.constant 7 : index
      %path_r = arith.remui %path_p, %path_c7 : index
      %path_ri = arith.index_cast %path_r : index to i32
      %path_rf = arith.sitofp %path_ri : i32 to f32
      %path_one = arith.constant 1.0 : f32
      %path_v0 = arith.addf %path_rf, %path_one : f32
      %path_s = arith.addi %path_i0, %path_i1 : index
      %path_c13 = arith.constant 13 : index
      %path_c11 = arith.constant 11 : index
      %path_z = arith.constant 0 : index
      %path_m13 = arith.remui %path_s, %path_c13 : index
      %path_m7 = arith.remui %path_s, %path_c7 : index
      %path_m11 = arith.remui %path_s, %path_c11 : index
      %path_e13 = arith.cmpi eq, %path_m13, %path_z : index
      %path_e7 = arith.cmpi eq, %path_m7, %path_z : index
      %path_e11 = arith.cmpi eq, %path_m11, %path_z : index
      %path_o1 = arith.ori %path_e13, %path_e7 : i1
      %path_far = arith.ori %path_o1, %path_e11 : i1
      %path_inf = arith.constant 999.0 : f32
      %path_v = arith.select %path_far, %path_inf, %path_v0 : f32
      memref.store %path_v, %path[%path_i0, %path_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%path) : (memref<?x?xf32>) -> ()
  %path_zero = arith.constant 0.0 : f32
  %path_sum = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %path_zero) -> f32 {
   %r = scf.for %j = %c0 to %n step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %path[%i, %j] : memref<?x?xf32>
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
  vector.print str "path "
  vector.print %path_sum : f32
  return
}
