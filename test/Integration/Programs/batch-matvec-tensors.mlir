// Batched matrix-vector product y[b] = A[b] x[b], as a front end emits it:
// linalg on tensors, a new tensor returned.
// Source: the batched matrix-vector product, as torch.bmm(A, x.unsqueeze(-1))
// computes it: y[b][i] = sum_k A[b][i][k] x[b][k]
// Translated to MLIR by hand as a user writes it: linalg.batch_matvec on tensors, its output a
// tensor.empty filled with zero by linalg.fill.
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: row reduction mapped
// CHECK: y 
// BUNDLE: --entry kernel --shape 0=16x512x256 --shape 1=16x256 --shape 2=16x512

func.func @kernel(%A: tensor<?x?x?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %A, %c0 : tensor<?x?x?xf32>
  %m = tensor.dim %A, %c1 : tensor<?x?x?xf32>
  %empty = tensor.empty(%b, %m) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = linalg.batch_matvec ins(%A, %x : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nb = arith.constant 5 : index
  %m = arith.constant 13 : index
  %k = arith.constant 11 : index
  %Ab = memref.alloc(%nb, %m, %k) : memref<?x?x?xf32>
  scf.for %Ab_i0 = %c0 to %nb step %c1 {
    scf.for %Ab_i1 = %c0 to %m step %c1 {
      scf.for %Ab_i2 = %c0 to %k step %c1 {
        %Ab_w0 = arith.constant 3 : index
        %Ab_p0 = arith.muli %Ab_i0, %Ab_w0 : index
        %Ab_w1 = arith.constant 5 : index
        %Ab_p1 = arith.muli %Ab_i1, %Ab_w1 : index
        %Ab_s1 = arith.addi %Ab_p0, %Ab_p1 : index
        %Ab_w2 = arith.constant 7 : index
        %Ab_p2 = arith.muli %Ab_i2, %Ab_w2 : index
        %Ab_s2 = arith.addi %Ab_s1, %Ab_p2 : index
        %Ab_m = arith.constant 5 : index
        %Ab_r = arith.remui %Ab_s2, %Ab_m : index
        %Ab_ri = arith.index_cast %Ab_r : index to i32
        %Ab_rf = arith.sitofp %Ab_ri : i32 to f32
        %Ab_h = arith.constant 2.0 : f32
        %Ab_v = arith.subf %Ab_rf, %Ab_h : f32
        memref.store %Ab_v, %Ab[%Ab_i0, %Ab_i1, %Ab_i2] : memref<?x?x?xf32>
      }
    }
  }
  %A = bufferization.to_tensor %Ab restrict : memref<?x?x?xf32> to tensor<?x?x?xf32>
  %xb = memref.alloc(%nb, %k) : memref<?x?xf32>
  scf.for %xb_i0 = %c0 to %nb step %c1 {
    scf.for %xb_i1 = %c0 to %k step %c1 {
      %xb_w0 = arith.constant 3 : index
      %xb_p0 = arith.muli %xb_i0, %xb_w0 : index
      %xb_w1 = arith.constant 5 : index
      %xb_p1 = arith.muli %xb_i1, %xb_w1 : index
      %xb_s1 = arith.addi %xb_p0, %xb_p1 : index
      %xb_m = arith.constant 4 : index
      %xb_r = arith.remui %xb_s1, %xb_m : index
      %xb_ri = arith.index_cast %xb_r : index to i32
      %xb_rf = arith.sitofp %xb_ri : i32 to f32
      %xb_h = arith.constant 2.0 : f32
      %xb_v = arith.subf %xb_rf, %xb_h : f32
      memref.store %xb_v, %xb[%xb_i0, %xb_i1] : memref<?x?xf32>
    }
  }
  %x = bufferization.to_tensor %xb restrict : memref<?x?xf32> to tensor<?x?xf32>
  %yt = call @kernel(%A, %x) : (tensor<?x?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = bufferization.to_buffer %yt read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %y_zero = arith.constant 0.0 : f32
  %y_acc0 = scf.for %y_k0 = %c0 to %nb step %c1 iter_args(%y_a0 = %y_zero) -> f32 {
    %y_acc1 = scf.for %y_k1 = %c0 to %m step %c1 iter_args(%y_a1 = %y_a0) -> f32 {
      %v = memref.load %y[%y_k0, %y_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c7 = arith.constant 7 : index
      %w = arith.remui %y_k1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %y_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %y_acc1 : f32
  }
  vector.print str "y "
  vector.print %y_acc0 : f32
  return
}
