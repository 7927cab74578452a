// PolyBench 3mm: G = (A B) (C D), three matrix products.
// Source: PolyBench/C 4.2, linear-algebra/kernels/3mm (kernel_3mm)
// Translated to MLIR by hand as a user writes it: E and G as an scf.parallel over (i, j) with the sum over k in an scf.for with iter_args, F as linalg.fill and linalg.matmul on memrefs.
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
// BOUND-DAG: remark: bound to gpu.launch: loop dimension 1 on threadIdx.x
// CHECK: E 
// CHECK: F 
// CHECK: G 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512x512 --shape 3=512x512 --shape 4=512x512 --shape 5=512x512 --shape 6=512x512

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %D: memref<?x?xf32>, %E: memref<?x?xf32>, %F: memref<?x?xf32>, %G: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ni = memref.dim %A, %c0 : memref<?x?xf32>
  %nk = memref.dim %A, %c1 : memref<?x?xf32>
  %nj = memref.dim %B, %c1 : memref<?x?xf32>
  %nl = memref.dim %D, %c1 : memref<?x?xf32>
  // E = A B
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %b = memref.load %B[%k, %j] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %E[%i, %j] : memref<?x?xf32>
  }
  // F = C D
  linalg.fill ins(%zero : f32) outs(%F : memref<?x?xf32>)
  linalg.matmul ins(%C, %D : memref<?x?xf32>, memref<?x?xf32>) outs(%F : memref<?x?xf32>)
  // G = E F
  scf.parallel (%i, %l) = (%c0, %c0) to (%ni, %nl) step (%c1, %c1) {
    %s = scf.for %j = %c0 to %nj step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %E[%i, %j] : memref<?x?xf32>
      %b = memref.load %F[%j, %l] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %G[%i, %l] : memref<?x?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = arith.constant 19 : index
  %nj = arith.constant 23 : index
  %nk = arith.constant 17 : index
  %nl = arith.constant 13 : index
  %nm = arith.constant 11 : index
  %A = memref.alloc(%ni, %nk) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %ni step %c1 {
    scf.for %A_i1 = %c0 to %nk step %c1 {
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
  %B = memref.alloc(%nk, %nj) : memref<?x?xf32>
  scf.for %B_i0 = %c0 to %nk step %c1 {
    scf.for %B_i1 = %c0 to %nj step %c1 {
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
  %C = memref.alloc(%nj, %nm) : memref<?x?xf32>
  scf.for %C_i0 = %c0 to %nj step %c1 {
    scf.for %C_i1 = %c0 to %nm step %c1 {
      %C_w0 = arith.constant 7 : index
      %C_p0 = arith.muli %C_i0, %C_w0 : index
      %C_w1 = arith.constant 11 : index
      %C_p1 = arith.muli %C_i1, %C_w1 : index
      %C_s1 = arith.addi %C_p0, %C_p1 : index
      %C_x1 = arith.muli %C_i0, %C_i1 : index
      %C_y1 = arith.addi %C_s1, %C_x1 : index
      %C_m = arith.constant 5 : index
      %C_r = arith.remui %C_y1, %C_m : index
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
      %D_x1 = arith.muli %D_i0, %D_i1 : index
      %D_y1 = arith.addi %D_s1, %D_x1 : index
      %D_m = arith.constant 4 : index
      %D_r = arith.remui %D_y1, %D_m : index
      %D_ri = arith.index_cast %D_r : index to i32
      %D_rf = arith.sitofp %D_ri : i32 to f32
      %D_h = arith.constant 2.0 : f32
      %D_v = arith.subf %D_rf, %D_h : f32
      memref.store %D_v, %D[%D_i0, %D_i1] : memref<?x?xf32>
    }
  }
  %E = memref.alloc(%ni, %nj) : memref<?x?xf32>
  scf.for %E_i0 = %c0 to %ni step %c1 {
    scf.for %E_i1 = %c0 to %nj step %c1 {
      %E_w0 = arith.constant 7 : index
      %E_p0 = arith.muli %E_i0, %E_w0 : index
      %E_w1 = arith.constant 11 : index
      %E_p1 = arith.muli %E_i1, %E_w1 : index
      %E_s1 = arith.addi %E_p0, %E_p1 : index
      %E_x1 = arith.muli %E_i0, %E_i1 : index
      %E_y1 = arith.addi %E_s1, %E_x1 : index
      %E_m = arith.constant 3 : index
      %E_r = arith.remui %E_y1, %E_m : index
      %E_ri = arith.index_cast %E_r : index to i32
      %E_rf = arith.sitofp %E_ri : i32 to f32
      %E_h = arith.constant 1.0 : f32
      %E_v = arith.subf %E_rf, %E_h : f32
      memref.store %E_v, %E[%E_i0, %E_i1] : memref<?x?xf32>
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
      %F_x1 = arith.muli %F_i0, %F_i1 : index
      %F_y1 = arith.addi %F_s1, %F_x1 : index
      %F_m = arith.constant 3 : index
      %F_r = arith.remui %F_y1, %F_m : index
      %F_ri = arith.index_cast %F_r : index to i32
      %F_rf = arith.sitofp %F_ri : i32 to f32
      %F_h = arith.constant 1.0 : f32
      %F_v = arith.subf %F_rf, %F_h : f32
      memref.store %F_v, %F[%F_i0, %F_i1] : memref<?x?xf32>
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
      %G_x1 = arith.muli %G_i0, %G_i1 : index
      %G_y1 = arith.addi %G_s1, %G_x1 : index
      %G_m = arith.constant 5 : index
      %G_r = arith.remui %G_y1, %G_m : index
      %G_ri = arith.index_cast %G_r : index to i32
      %G_rf = arith.sitofp %G_ri : i32 to f32
      %G_h = arith.constant 2.0 : f32
      %G_v = arith.subf %G_rf, %G_h : f32
      memref.store %G_v, %G[%G_i0, %G_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%A, %B, %C, %D, %E, %F, %G) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %E_zero = arith.constant 0.0 : f32
  %E_sum = scf.for %E_k0 = %c0 to %ni step %c1 iter_args(%E_a0 = %E_zero) -> f32 {
    %E_t1 = scf.for %E_k1 = %c0 to %nj step %c1 iter_args(%E_a1 = %E_a0) -> f32 {
      %E_cv = memref.load %E[%E_k0, %E_k1] : memref<?x?xf32>
      %E_f1 = arith.constant 2 : index
      %E_g1 = arith.muli %E_k1, %E_f1 : index
      %E_h1 = arith.addi %E_k0, %E_g1 : index
      %E_c7 = arith.constant 7 : index
      %E_cw = arith.remui %E_h1, %E_c7 : index
      %E_cw1 = arith.addi %E_cw, %c1 : index
      %E_cwi = arith.index_cast %E_cw1 : index to i32
      %E_cwf = arith.sitofp %E_cwi : i32 to f32
      %E_prod = arith.mulf %E_cv, %E_cwf : f32
      %E_csum = arith.addf %E_a1, %E_prod : f32
      scf.yield %E_csum : f32
    }
    scf.yield %E_t1 : f32
  }
  vector.print str "E "
  vector.print %E_sum : f32
  %F_zero = arith.constant 0.0 : f32
  %F_sum = scf.for %F_k0 = %c0 to %nj step %c1 iter_args(%F_a0 = %F_zero) -> f32 {
    %F_t1 = scf.for %F_k1 = %c0 to %nl step %c1 iter_args(%F_a1 = %F_a0) -> f32 {
      %F_cv = memref.load %F[%F_k0, %F_k1] : memref<?x?xf32>
      %F_f1 = arith.constant 2 : index
      %F_g1 = arith.muli %F_k1, %F_f1 : index
      %F_h1 = arith.addi %F_k0, %F_g1 : index
      %F_c7 = arith.constant 7 : index
      %F_cw = arith.remui %F_h1, %F_c7 : index
      %F_cw1 = arith.addi %F_cw, %c1 : index
      %F_cwi = arith.index_cast %F_cw1 : index to i32
      %F_cwf = arith.sitofp %F_cwi : i32 to f32
      %F_prod = arith.mulf %F_cv, %F_cwf : f32
      %F_csum = arith.addf %F_a1, %F_prod : f32
      scf.yield %F_csum : f32
    }
    scf.yield %F_t1 : f32
  }
  vector.print str "F "
  vector.print %F_sum : f32
  %G_zero = arith.constant 0.0 : f32
  %G_sum = scf.for %G_k0 = %c0 to %ni step %c1 iter_args(%G_a0 = %G_zero) -> f32 {
    %G_t1 = scf.for %G_k1 = %c0 to %nl step %c1 iter_args(%G_a1 = %G_a0) -> f32 {
      %G_cv = memref.load %G[%G_k0, %G_k1] : memref<?x?xf32>
      %G_f1 = arith.constant 2 : index
      %G_g1 = arith.muli %G_k1, %G_f1 : index
      %G_h1 = arith.addi %G_k0, %G_g1 : index
      %G_c7 = arith.constant 7 : index
      %G_cw = arith.remui %G_h1, %G_c7 : index
      %G_cw1 = arith.addi %G_cw, %c1 : index
      %G_cwi = arith.index_cast %G_cw1 : index to i32
      %G_cwf = arith.sitofp %G_cwi : i32 to f32
      %G_prod = arith.mulf %G_cv, %G_cwf : f32
      %G_csum = arith.addf %G_a1, %G_prod : f32
      scf.yield %G_csum : f32
    }
    scf.yield %G_t1 : f32
  }
  vector.print str "G "
  vector.print %G_sum : f32
  return
}
