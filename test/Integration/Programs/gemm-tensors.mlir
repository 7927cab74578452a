// PolyBench gemm: C = alpha A B + beta C, as a front end emits it: linalg
// on tensors, a new tensor returned.
// Source: PolyBench/C 4.2, linear-algebra/blas/gemm (kernel_gemm)
// Translated to MLIR by hand as a user writes it: linalg.matmul on tensors into a zero-filled
// tensor.empty, then alpha A B + beta C as an elementwise linalg.generic.
// Checked in CPU emulation against the original, bufferized by upstream's
// One-Shot Bufferize, under the default options, a cover grid with
// 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -one-shot-bufferize="bufferize-function-boundaries" -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
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
// The entry takes its result as an argument once bufferized.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=ENTRY
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: C 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512x512 --shape 3=512x512

#id = affine_map<(i, j) -> (i, j)>

func.func @kernel(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>, %C: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %ni = tensor.dim %A, %c0 : tensor<?x?xf32>
  %nj = tensor.dim %B, %c1 : tensor<?x?xf32>
  %empty = tensor.empty(%ni, %nj) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  %ab = linalg.matmul ins(%A, %B : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ab, %C : tensor<?x?xf32>, tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%p: f32, %c: f32, %o: f32):
    %ap = arith.mulf %alpha, %p : f32
    %bc = arith.mulf %beta, %c : f32
    %r = arith.addf %ap, %bc : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %out : tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = arith.constant 19 : index
  %nj = arith.constant 23 : index
  %nk = arith.constant 17 : index
  %Ab = memref.alloc(%ni, %nk) : memref<?x?xf32>
  scf.for %Ab_i0 = %c0 to %ni step %c1 {
    scf.for %Ab_i1 = %c0 to %nk step %c1 {
      %Ab_w0 = arith.constant 3 : index
      %Ab_p0 = arith.muli %Ab_i0, %Ab_w0 : index
      %Ab_w1 = arith.constant 5 : index
      %Ab_p1 = arith.muli %Ab_i1, %Ab_w1 : index
      %Ab_s1 = arith.addi %Ab_p0, %Ab_p1 : index
      %Ab_m = arith.constant 5 : index
      %Ab_r = arith.remui %Ab_s1, %Ab_m : index
      %Ab_ri = arith.index_cast %Ab_r : index to i32
      %Ab_rf = arith.sitofp %Ab_ri : i32 to f32
      %Ab_h = arith.constant 2.0 : f32
      %Ab_v = arith.subf %Ab_rf, %Ab_h : f32
      memref.store %Ab_v, %Ab[%Ab_i0, %Ab_i1] : memref<?x?xf32>
    }
  }
  %A = bufferization.to_tensor %Ab restrict : memref<?x?xf32> to tensor<?x?xf32>
  %Bb = memref.alloc(%nk, %nj) : memref<?x?xf32>
  scf.for %Bb_i0 = %c0 to %nk step %c1 {
    scf.for %Bb_i1 = %c0 to %nj step %c1 {
      %Bb_w0 = arith.constant 3 : index
      %Bb_p0 = arith.muli %Bb_i0, %Bb_w0 : index
      %Bb_w1 = arith.constant 5 : index
      %Bb_p1 = arith.muli %Bb_i1, %Bb_w1 : index
      %Bb_s1 = arith.addi %Bb_p0, %Bb_p1 : index
      %Bb_m = arith.constant 3 : index
      %Bb_r = arith.remui %Bb_s1, %Bb_m : index
      %Bb_ri = arith.index_cast %Bb_r : index to i32
      %Bb_rf = arith.sitofp %Bb_ri : i32 to f32
      %Bb_h = arith.constant 1.0 : f32
      %Bb_v = arith.subf %Bb_rf, %Bb_h : f32
      memref.store %Bb_v, %Bb[%Bb_i0, %Bb_i1] : memref<?x?xf32>
    }
  }
  %B = bufferization.to_tensor %Bb restrict : memref<?x?xf32> to tensor<?x?xf32>
  %Cinb = memref.alloc(%ni, %nj) : memref<?x?xf32>
  scf.for %Cinb_i0 = %c0 to %ni step %c1 {
    scf.for %Cinb_i1 = %c0 to %nj step %c1 {
      %Cinb_w0 = arith.constant 3 : index
      %Cinb_p0 = arith.muli %Cinb_i0, %Cinb_w0 : index
      %Cinb_w1 = arith.constant 5 : index
      %Cinb_p1 = arith.muli %Cinb_i1, %Cinb_w1 : index
      %Cinb_s1 = arith.addi %Cinb_p0, %Cinb_p1 : index
      %Cinb_m = arith.constant 4 : index
      %Cinb_r = arith.remui %Cinb_s1, %Cinb_m : index
      %Cinb_ri = arith.index_cast %Cinb_r : index to i32
      %Cinb_rf = arith.sitofp %Cinb_ri : i32 to f32
      %Cinb_h = arith.constant 2.0 : f32
      %Cinb_v = arith.subf %Cinb_rf, %Cinb_h : f32
      memref.store %Cinb_v, %Cinb[%Cinb_i0, %Cinb_i1] : memref<?x?xf32>
    }
  }
  %Cin = bufferization.to_tensor %Cinb restrict : memref<?x?xf32> to tensor<?x?xf32>
  %Ct = call @kernel(%A, %B, %Cin) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %C = bufferization.to_buffer %Ct read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %C_zero = arith.constant 0.0 : f32
  %C_acc0 = scf.for %C_k0 = %c0 to %ni step %c1 iter_args(%C_a0 = %C_zero) -> f32 {
    %C_acc1 = scf.for %C_k1 = %c0 to %nj step %c1 iter_args(%C_a1 = %C_a0) -> f32 {
      %v = memref.load %C[%C_k0, %C_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c7 = arith.constant 7 : index
      %w = arith.remui %C_k1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %C_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %C_acc1 : f32
  }
  vector.print str "C "
  vector.print %C_acc0 : f32
  return
}
