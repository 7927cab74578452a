// PolyBench symm: C = alpha A B + beta C with A symmetric, stored in its lower triangle.
// Source: PolyBench/C 4.2, linear-algebra/blas/symm (kernel_symm)
// Translated to MLIR by hand as a user writes it: PolyBench's loop order: a host scf.for over rows i (row i's k loop updates the rows k < i of C, a dependence across i) around an scf.parallel over columns j, the k loop an scf.for that both updates C[k][j] in memory and carries temp2 in iter_args.
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
// BOUND-DAG: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x
// CHECK: C 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x1024 --shape 2=512x1024

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %m = memref.dim %C, %c0 : memref<?x?xf32>
  %n = memref.dim %C, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    // Each column j is independent: C[k][j] and B[k][j] stay in column j.
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      %bij = memref.load %B[%i, %j] : memref<?x?xf32>
      %abij = arith.mulf %alpha, %bij : f32
      %temp2 = scf.for %k = %c0 to %i step %c1 iter_args(%acc = %zero) -> f32 {
        %aik = memref.load %A[%i, %k] : memref<?x?xf32>
        %ckj = memref.load %C[%k, %j] : memref<?x?xf32>
        %u = arith.mulf %abij, %aik : f32
        %nc = arith.addf %ckj, %u : f32
        memref.store %nc, %C[%k, %j] : memref<?x?xf32>
        %bkj = memref.load %B[%k, %j] : memref<?x?xf32>
        %v = arith.mulf %bkj, %aik : f32
        %t = arith.addf %acc, %v : f32
        scf.yield %t : f32
      }
      %cij = memref.load %C[%i, %j] : memref<?x?xf32>
      %aii = memref.load %A[%i, %i] : memref<?x?xf32>
      %bc = arith.mulf %beta, %cij : f32
      %d = arith.mulf %abij, %aii : f32
      %at = arith.mulf %alpha, %temp2 : f32
      %s1 = arith.addf %bc, %d : f32
      %s2 = arith.addf %s1, %at : f32
      memref.store %s2, %C[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 23 : index
  %n = arith.constant 37 : index
  %A = memref.alloc(%m, %m) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %m step %c1 {
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
  %B = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %B_i0 = %c0 to %m step %c1 {
    scf.for %B_i1 = %c0 to %n step %c1 {
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
  %C = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %C_i0 = %c0 to %m step %c1 {
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
  %C_sum = scf.for %C_k0 = %c0 to %m step %c1 iter_args(%C_a0 = %C_zero) -> f32 {
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
