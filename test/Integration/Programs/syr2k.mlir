// PolyBench syr2k: C = alpha (A B^T + B A^T) + beta C on the lower triangle.
// Source: PolyBench/C 4.2, linear-algebra/blas/syr2k (kernel_syr2k)
// Translated to MLIR by hand as a user writes it: an scf.parallel over rows i holding an scf.parallel over j < i + 1, both products summed over k in one scf.for with iter_args started at beta C[i][j].
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
// BOUND-DAG: remark: bound to gpu.launch with register tiles: each output runs a loop over k that reads memory along the outer loop and along the inner one, whose bounds vary with the outer
// CHECK: C 
// BUNDLE: --entry kernel --shape 0=1024x1024 --shape 1=1024x1024 --shape 2=1024x1024

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  // The lower triangle, j <= i: C[i][j] = beta C[i][j] + sum_k alpha (A[j][k] B[i][k] + B[j][k] A[i][k])
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ie = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%ie) step (%c1) {
      %c = memref.load %C[%i, %j] : memref<?x?xf32>
      %bc = arith.mulf %beta, %c : f32
      %s = scf.for %k = %c0 to %m step %c1 iter_args(%acc = %bc) -> f32 {
        %ajk = memref.load %A[%j, %k] : memref<?x?xf32>
        %bik = memref.load %B[%i, %k] : memref<?x?xf32>
        %bjk = memref.load %B[%j, %k] : memref<?x?xf32>
        %aik = memref.load %A[%i, %k] : memref<?x?xf32>
        %abik = arith.mulf %alpha, %bik : f32
        %p1 = arith.mulf %ajk, %abik : f32
        %aaik = arith.mulf %alpha, %aik : f32
        %p2 = arith.mulf %bjk, %aaik : f32
        %q = arith.addf %p1, %p2 : f32
        %t = arith.addf %acc, %q : f32
        scf.yield %t : f32
      }
      memref.store %s, %C[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 37 : index
  %m = arith.constant 29 : index
  %A = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %n step %c1 {
    scf.for %A_i1 = %c0 to %m step %c1 {
      %A_w0 = arith.constant 7 : index
      %A_p0 = arith.muli %A_i0, %A_w0 : index
      %A_w1 = arith.constant 11 : index
      %A_p1 = arith.muli %A_i1, %A_w1 : index
      %A_s1 = arith.addi %A_p0, %A_p1 : index
      %A_x1 = arith.muli %A_i0, %A_i1 : index
      %A_y1 = arith.addi %A_s1, %A_x1 : index
      %A_m = arith.constant 5 : index
      %A_r = arith.remui %A_y1, %A_m : index
      %A_ri = arith.index_cast %A_r : index to i32
      %A_rf = arith.sitofp %A_ri : i32 to f32
      %A_h = arith.constant 2.0 : f32
      %A_v = arith.subf %A_rf, %A_h : f32
      memref.store %A_v, %A[%A_i0, %A_i1] : memref<?x?xf32>
    }
  }
  %B = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %B_i0 = %c0 to %n step %c1 {
    scf.for %B_i1 = %c0 to %m step %c1 {
      %B_w0 = arith.constant 7 : index
      %B_p0 = arith.muli %B_i0, %B_w0 : index
      %B_w1 = arith.constant 11 : index
      %B_p1 = arith.muli %B_i1, %B_w1 : index
      %B_s1 = arith.addi %B_p0, %B_p1 : index
      %B_x1 = arith.muli %B_i0, %B_i1 : index
      %B_y1 = arith.addi %B_s1, %B_x1 : index
      %B_m = arith.constant 3 : index
      %B_r = arith.remui %B_y1, %B_m : index
      %B_ri = arith.index_cast %B_r : index to i32
      %B_rf = arith.sitofp %B_ri : i32 to f32
      %B_h = arith.constant 1.0 : f32
      %B_v = arith.subf %B_rf, %B_h : f32
      memref.store %B_v, %B[%B_i0, %B_i1] : memref<?x?xf32>
    }
  }
  %C = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %C_i0 = %c0 to %n step %c1 {
    scf.for %C_i1 = %c0 to %n step %c1 {
      %C_w0 = arith.constant 7 : index
      %C_p0 = arith.muli %C_i0, %C_w0 : index
      %C_w1 = arith.constant 11 : index
      %C_p1 = arith.muli %C_i1, %C_w1 : index
      %C_s1 = arith.addi %C_p0, %C_p1 : index
      %C_x1 = arith.muli %C_i0, %C_i1 : index
      %C_y1 = arith.addi %C_s1, %C_x1 : index
      %C_m = arith.constant 4 : index
      %C_r = arith.remui %C_y1, %C_m : index
      %C_ri = arith.index_cast %C_r : index to i32
      %C_rf = arith.sitofp %C_ri : i32 to f32
      %C_h = arith.constant 2.0 : f32
      %C_v = arith.subf %C_rf, %C_h : f32
      memref.store %C_v, %C[%C_i0, %C_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%A, %B, %C) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %C_zero = arith.constant 0.0 : f32
  %C_sum = scf.for %C_k0 = %c0 to %n step %c1 iter_args(%C_a0 = %C_zero) -> f32 {
    %C_t1 = scf.for %C_k1 = %c0 to %n step %c1 iter_args(%C_a1 = %C_a0) -> f32 {
      %C_cv = memref.load %C[%C_k0, %C_k1] : memref<?x?xf32>
      %C_f1 = arith.constant 2 : index
      %C_g1 = arith.muli %C_k1, %C_f1 : index
      %C_h1 = arith.addi %C_k0, %C_g1 : index
      %C_c7 = arith.constant 7 : index
      %C_cw = arith.remui %C_h1, %C_c7 : index
      %C_cw1 = arith.addi %C_cw, %c1 : index
      %C_cwi = arith.index_cast %C_cw1 : index to i32
      %C_cwf = arith.sitofp %C_cwi : i32 to f32
      %C_prod = arith.mulf %C_cv, %C_cwf : f32
      %C_csum = arith.addf %C_a1, %C_prod : f32
      scf.yield %C_csum : f32
    }
    scf.yield %C_t1 : f32
  }
  vector.print str "C "
  vector.print %C_sum : f32
  return
}
