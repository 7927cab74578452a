// PolyBench 2mm: D = alpha A B C + beta D, as two matrix products.
// Source: PolyBench/C 4.2, linear-algebra/kernels/2mm (kernel_2mm)
// Translated to MLIR by hand as a user writes it: one scf.parallel over (i, j) per product, each sum over k in an scf.for with iter_args.
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
// BOUND-DAG: remark: bound to gpu.launch with register tiles: each output runs a loop over k that reads memory along loop dimension 0 and along dimension 1
// CHECK: tmp 
// CHECK: D 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512x512 --shape 3=512x512 --shape 4=512x512

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %D: memref<?x?xf32>, %tmp: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %ni = memref.dim %A, %c0 : memref<?x?xf32>
  %nk = memref.dim %A, %c1 : memref<?x?xf32>
  %nj = memref.dim %B, %c1 : memref<?x?xf32>
  %nl = memref.dim %C, %c1 : memref<?x?xf32>
  // tmp[i][j] = sum_k alpha * A[i][k] * B[k][j]
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %aa = arith.mulf %alpha, %a : f32
      %b = memref.load %B[%k, %j] : memref<?x?xf32>
      %p = arith.mulf %aa, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %tmp[%i, %j] : memref<?x?xf32>
  }
  // D[i][j] = beta * D[i][j] + sum_k tmp[i][k] * C[k][j]
  scf.parallel (%i, %l) = (%c0, %c0) to (%ni, %nl) step (%c1, %c1) {
    %d = memref.load %D[%i, %l] : memref<?x?xf32>
    %bd = arith.mulf %beta, %d : f32
    %s = scf.for %j = %c0 to %nj step %c1 iter_args(%acc = %bd) -> f32 {
      %a = memref.load %tmp[%i, %j] : memref<?x?xf32>
      %b = memref.load %C[%j, %l] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %D[%i, %l] : memref<?x?xf32>
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
  %C = memref.alloc(%nj, %nl) : memref<?x?xf32>
  scf.for %C_i0 = %c0 to %nj step %c1 {
    scf.for %C_i1 = %c0 to %nl step %c1 {
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
  %D = memref.alloc(%ni, %nl) : memref<?x?xf32>
  scf.for %D_i0 = %c0 to %ni step %c1 {
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
  %tmp = memref.alloc(%ni, %nj) : memref<?x?xf32>
  scf.for %tmp_i0 = %c0 to %ni step %c1 {
    scf.for %tmp_i1 = %c0 to %nj step %c1 {
      %tmp_w0 = arith.constant 7 : index
      %tmp_p0 = arith.muli %tmp_i0, %tmp_w0 : index
      %tmp_w1 = arith.constant 11 : index
      %tmp_p1 = arith.muli %tmp_i1, %tmp_w1 : index
      %tmp_s1 = arith.addi %tmp_p0, %tmp_p1 : index
      %tmp_x1 = arith.muli %tmp_i0, %tmp_i1 : index
      %tmp_y1 = arith.addi %tmp_s1, %tmp_x1 : index
      %tmp_m = arith.constant 3 : index
      %tmp_r = arith.remui %tmp_y1, %tmp_m : index
      %tmp_ri = arith.index_cast %tmp_r : index to i32
      %tmp_rf = arith.sitofp %tmp_ri : i32 to f32
      %tmp_h = arith.constant 1.0 : f32
      %tmp_v = arith.subf %tmp_rf, %tmp_h : f32
      memref.store %tmp_v, %tmp[%tmp_i0, %tmp_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%A, %B, %C, %D, %tmp) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %tmp_zero = arith.constant 0.0 : f32
  %tmp_sum = scf.for %tmp_k0 = %c0 to %ni step %c1 iter_args(%tmp_a0 = %tmp_zero) -> f32 {
    %tmp_t1 = scf.for %tmp_k1 = %c0 to %nj step %c1 iter_args(%tmp_a1 = %tmp_a0) -> f32 {
      %tmp_cv = memref.load %tmp[%tmp_k0, %tmp_k1] : memref<?x?xf32>
      %tmp_f1 = arith.constant 2 : index
      %tmp_g1 = arith.muli %tmp_k1, %tmp_f1 : index
      %tmp_h1 = arith.addi %tmp_k0, %tmp_g1 : index
      %tmp_c7 = arith.constant 7 : index
      %tmp_cw = arith.remui %tmp_h1, %tmp_c7 : index
      %tmp_cw1 = arith.addi %tmp_cw, %c1 : index
      %tmp_cwi = arith.index_cast %tmp_cw1 : index to i32
      %tmp_cwf = arith.sitofp %tmp_cwi : i32 to f32
      %tmp_prod = arith.mulf %tmp_cv, %tmp_cwf : f32
      %tmp_csum = arith.addf %tmp_a1, %tmp_prod : f32
      scf.yield %tmp_csum : f32
    }
    scf.yield %tmp_t1 : f32
  }
  vector.print str "tmp "
  vector.print %tmp_sum : f32
  %D_zero = arith.constant 0.0 : f32
  %D_sum = scf.for %D_k0 = %c0 to %ni step %c1 iter_args(%D_a0 = %D_zero) -> f32 {
    %D_t1 = scf.for %D_k1 = %c0 to %nl step %c1 iter_args(%D_a1 = %D_a0) -> f32 {
      %D_cv = memref.load %D[%D_k0, %D_k1] : memref<?x?xf32>
      %D_f1 = arith.constant 2 : index
      %D_g1 = arith.muli %D_k1, %D_f1 : index
      %D_h1 = arith.addi %D_k0, %D_g1 : index
      %D_c7 = arith.constant 7 : index
      %D_cw = arith.remui %D_h1, %D_c7 : index
      %D_cw1 = arith.addi %D_cw, %c1 : index
      %D_cwi = arith.index_cast %D_cw1 : index to i32
      %D_cwf = arith.sitofp %D_cwi : i32 to f32
      %D_prod = arith.mulf %D_cv, %D_cwf : f32
      %D_csum = arith.addf %D_a1, %D_prod : f32
      scf.yield %D_csum : f32
    }
    scf.yield %D_t1 : f32
  }
  vector.print str "D "
  vector.print %D_sum : f32
  return
}
