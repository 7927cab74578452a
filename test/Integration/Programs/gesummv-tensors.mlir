// PolyBench gesummv: y = alpha A x + beta B x, as a front end emits it:
// linalg on tensors, a new tensor returned.
// Source: PolyBench/C 4.2, linear-algebra/blas/gesummv (kernel_gesummv)
// Translated to MLIR by hand as a user writes it: tmp = A x and y = B x by
// two linalg.matvec into zero-filled tensor.empty, then alpha tmp + beta y
// by an elementwise linalg.generic.
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: y 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048x2048 --shape 2=2048 --shape 3=2048

#vec = affine_map<(i) -> (i)>

func.func @kernel(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %n = tensor.dim %A, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %tmp = linalg.matvec ins(%A, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%z : tensor<?xf32>) -> tensor<?xf32>
  %bx = linalg.matvec ins(%B, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%z : tensor<?xf32>) -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [#vec, #vec, #vec], iterator_types = ["parallel"]}
      ins(%tmp, %bx : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%t: f32, %b: f32, %o: f32):
    %at = arith.mulf %alpha, %t : f32
    %bb = arith.mulf %beta, %b : f32
    %r = arith.addf %at, %bb : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 43 : index
  %Ab = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %Ab_i0 = %c0 to %n step %c1 {
    scf.for %Ab_i1 = %c0 to %n step %c1 {
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
  %Bb = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %Bb_i0 = %c0 to %n step %c1 {
    scf.for %Bb_i1 = %c0 to %n step %c1 {
      %Bb_w0 = arith.constant 7 : index
      %Bb_p0 = arith.muli %Bb_i0, %Bb_w0 : index
      %Bb_w1 = arith.constant 11 : index
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
  %xb = memref.alloc(%n) : memref<?xf32>
  scf.for %xb_i0 = %c0 to %n step %c1 {
    %xb_w0 = arith.constant 7 : index
    %xb_p0 = arith.muli %xb_i0, %xb_w0 : index
    %xb_m = arith.constant 4 : index
    %xb_r = arith.remui %xb_p0, %xb_m : index
    %xb_ri = arith.index_cast %xb_r : index to i32
    %xb_rf = arith.sitofp %xb_ri : i32 to f32
    %xb_h = arith.constant 2.0 : f32
    %xb_v = arith.subf %xb_rf, %xb_h : f32
    memref.store %xb_v, %xb[%xb_i0] : memref<?xf32>
  }
  %x = bufferization.to_tensor %xb restrict : memref<?xf32> to tensor<?xf32>
  %yt = call @kernel(%A, %B, %x) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %y = bufferization.to_buffer %yt read_only : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %y_zero = arith.constant 0.0 : f32
  %y_acc0 = scf.for %y_k0 = %c0 to %n step %c1 iter_args(%y_a0 = %y_zero) -> f32 {
    %v = memref.load %y[%y_k0] : memref<?xf32, strided<[?], offset: ?>>
    %c7 = arith.constant 7 : index
    %w = arith.remui %y_k0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %y_a0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "y "
  vector.print %y_acc0 : f32
  return
}
