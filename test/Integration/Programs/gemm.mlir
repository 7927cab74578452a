// PolyBench gemm: C = alpha A B + beta C.
// Source: PolyBench/C 4.2, linear-algebra/blas/gemm (kernel_gemm)
// Translated to MLIR by hand as a user writes it: an scf.parallel over (i, j), the sum over k in an scf.for with iter_args.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512x512 --shape 3=262144

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// The same with the 32-bit index copies (threadbind-narrow-indices).
// RUN: threadbind-opt %t.default.mlir -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// BOUND-DAG: remark: bound to gpu.launch: loop dimension 1 on threadIdx.x
// CHECK: out 

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %ni = memref.dim %A, %c0 : memref<?x?xf32>
  %nk = memref.dim %A, %c1 : memref<?x?xf32>
  %nj = memref.dim %B, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %b = memref.load %B[%k, %j] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    %c = memref.load %C[%i, %j] : memref<?x?xf32>
    %bc = arith.mulf %beta, %c : f32
    %as = arith.mulf %alpha, %s : f32
    %r = arith.addf %as, %bc : f32
    memref.store %r, %C[%i, %j] : memref<?x?xf32>
  }
  // The rows of C, flattened for the checksum.
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %v = memref.load %C[%i, %j] : memref<?x?xf32>
    %row = arith.muli %i, %nj : index
    %e = arith.addi %row, %j : index
    memref.store %v, %out[%e] : memref<?xf32>
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
  %ni = arith.constant 19 : index
  %nj = arith.constant 23 : index
  %nk = arith.constant 17 : index
  %nout = arith.constant 437 : index
  %A = memref.alloc(%ni, %nk) : memref<?x?xf32>
    scf.for %A_i0 = %c0 to %ni step %c1 {
      scf.for %A_i1 = %c0 to %nk step %c1 {
        %A_w0 = arith.constant 7 : index
        %A_p0 = arith.muli %A_i0, %A_w0 : index
        %A_w1 = arith.constant 11 : index
        %A_p1 = arith.muli %A_i1, %A_w1 : index
        %A_s1 = arith.addi %A_p0, %A_p1 : index
        %A_m = arith.constant 5 : index
        %A_r = arith.remui %A_s1, %A_m : index
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
        %B_m = arith.constant 3 : index
        %B_r = arith.remui %B_s1, %B_m : index
        %B_ri = arith.index_cast %B_r : index to i32
        %B_rf = arith.sitofp %B_ri : i32 to f32
        %B_h = arith.constant 1.0 : f32
        %B_v = arith.subf %B_rf, %B_h : f32
        memref.store %B_v, %B[%B_i0, %B_i1] : memref<?x?xf32>
      }
    }
  %C = memref.alloc(%ni, %nj) : memref<?x?xf32>
    scf.for %C_i0 = %c0 to %ni step %c1 {
      scf.for %C_i1 = %c0 to %nj step %c1 {
        %C_w0 = arith.constant 7 : index
        %C_p0 = arith.muli %C_i0, %C_w0 : index
        %C_w1 = arith.constant 11 : index
        %C_p1 = arith.muli %C_i1, %C_w1 : index
        %C_s1 = arith.addi %C_p0, %C_p1 : index
        %C_m = arith.constant 4 : index
        %C_r = arith.remui %C_s1, %C_m : index
        %C_ri = arith.index_cast %C_r : index to i32
        %C_rf = arith.sitofp %C_ri : i32 to f32
        %C_h = arith.constant 2.0 : f32
        %C_v = arith.subf %C_rf, %C_h : f32
        memref.store %C_v, %C[%C_i0, %C_i1] : memref<?x?xf32>
      }
    }
  %out = memref.alloc(%nout) : memref<?xf32>
    scf.for %out_i0 = %c0 to %nout step %c1 {
      %out_w0 = arith.constant 7 : index
      %out_p0 = arith.muli %out_i0, %out_w0 : index
      %out_m = arith.constant 3 : index
      %out_r = arith.remui %out_p0, %out_m : index
      %out_ri = arith.index_cast %out_r : index to i32
      %out_rf = arith.sitofp %out_ri : i32 to f32
      %out_h = arith.constant 1.0 : f32
      %out_v = arith.subf %out_rf, %out_h : f32
      memref.store %out_v, %out[%out_i0] : memref<?xf32>
    }
  call @kernel(%A, %B, %C, %out) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  %out_zero = arith.constant 0.0 : f32
  %out_sum = scf.for %k = %c0 to %nout step %c1 iter_args(%a = %out_zero) -> f32 {
    %v = memref.load %out[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
  vector.print str "out "
  vector.print %out_sum : f32
  return
}
