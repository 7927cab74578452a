// PolyBench syrk: C = alpha A A^T + beta C, as a front end emits it: linalg
// on tensors, a new tensor returned. The full matrix C is computed (PolyBench
// updates only its lower triangle, j <= i; the upper one is the same by
// symmetry when C is symmetric).
// Source: PolyBench/C 4.2, linear-algebra/blas/syrk (kernel_syrk)
// Translated to MLIR by hand as a user writes it: linalg.transpose of A, a
// linalg.matmul of A and A^T into a zero-filled tensor.empty, then
// alpha A A^T + beta C as an elementwise linalg.generic.
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: C_out 
// BUNDLE: --entry kernel --shape 0=1024x512 --shape 1=1024x1024 --shape 2=1024x1024

#id = affine_map<(i, j) -> (i, j)>

func.func @kernel(%A: tensor<?x?xf32>, %C: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %n = tensor.dim %A, %c0 : tensor<?x?xf32>
  %m = tensor.dim %A, %c1 : tensor<?x?xf32>
  %te = tensor.empty(%m, %n) : tensor<?x?xf32>
  %At = linalg.transpose ins(%A : tensor<?x?xf32>) outs(%te : tensor<?x?xf32>) permutation = [1, 0]
  %pe = tensor.empty(%n, %n) : tensor<?x?xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<?x?xf32>) -> tensor<?x?xf32>
  %aat = linalg.matmul ins(%A, %At : tensor<?x?xf32>, tensor<?x?xf32>) outs(%pz : tensor<?x?xf32>) -> tensor<?x?xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%aat, %C : tensor<?x?xf32>, tensor<?x?xf32>) outs(%pe : tensor<?x?xf32>) {
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
  %n = arith.constant 31 : index
  %m = arith.constant 23 : index
  %Ab = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %Ab_i0 = %c0 to %n step %c1 {
    scf.for %Ab_i1 = %c0 to %m step %c1 {
      %Ab_w0 = arith.constant 7 : index
      %Ab_p0 = arith.muli %Ab_i0, %Ab_w0 : index
      %Ab_w1 = arith.constant 11 : index
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
  %Cb = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %Cb_i0 = %c0 to %n step %c1 {
    scf.for %Cb_i1 = %c0 to %n step %c1 {
      %Cb_w0 = arith.constant 7 : index
      %Cb_p0 = arith.muli %Cb_i0, %Cb_w0 : index
      %Cb_w1 = arith.constant 11 : index
      %Cb_p1 = arith.muli %Cb_i1, %Cb_w1 : index
      %Cb_s1 = arith.addi %Cb_p0, %Cb_p1 : index
      %Cb_m = arith.constant 4 : index
      %Cb_r = arith.remui %Cb_s1, %Cb_m : index
      %Cb_ri = arith.index_cast %Cb_r : index to i32
      %Cb_rf = arith.sitofp %Cb_ri : i32 to f32
      %Cb_h = arith.constant 2.0 : f32
      %Cb_v = arith.subf %Cb_rf, %Cb_h : f32
      memref.store %Cb_v, %Cb[%Cb_i0, %Cb_i1] : memref<?x?xf32>
    }
  }
  %C = bufferization.to_tensor %Cb restrict : memref<?x?xf32> to tensor<?x?xf32>
  %C_outt = call @kernel(%A, %C) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %C_out = bufferization.to_buffer %C_outt read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %C_out_zero = arith.constant 0.0 : f32
  %C_out_acc0 = scf.for %C_out_k0 = %c0 to %n step %c1 iter_args(%C_out_a0 = %C_out_zero) -> f32 {
    %C_out_acc1 = scf.for %C_out_k1 = %c0 to %n step %c1 iter_args(%C_out_a1 = %C_out_a0) -> f32 {
      %v = memref.load %C_out[%C_out_k0, %C_out_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %ww0 = arith.constant 3 : index
      %wp0 = arith.muli %C_out_k0, %ww0 : index
      %ws1 = arith.addi %wp0, %C_out_k1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %ws1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %C_out_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %C_out_acc1 : f32
  }
  vector.print str "C_out "
  vector.print %C_out_acc0 : f32
  return
}
