// PolyBench atax: y = A^T (A x), as a front end emits it: linalg on
// tensors, a new tensor returned.
// Source: PolyBench/C 4.2, linear-algebra/kernels/atax (kernel_atax)
// Translated to MLIR by hand as a user writes it: linalg.matvec for tmp = A x, then
// linalg.vecmat for y = tmp^T A, each into a zero-filled tensor.empty.
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: y 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048 --shape 2=2048

func.func @kernel(%A: tensor<?x?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %A, %c0 : tensor<?x?xf32>
  %n = tensor.dim %A, %c1 : tensor<?x?xf32>
  // tmp = A x
  %te = tensor.empty(%m) : tensor<?xf32>
  %tz = linalg.fill ins(%zero : f32) outs(%te : tensor<?xf32>) -> tensor<?xf32>
  %tmp = linalg.matvec ins(%A, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%tz : tensor<?xf32>) -> tensor<?xf32>
  // y = A^T tmp, as tmp^T A
  %ye = tensor.empty(%n) : tensor<?xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<?xf32>) -> tensor<?xf32>
  %y = linalg.vecmat ins(%tmp, %A : tensor<?xf32>, tensor<?x?xf32>) outs(%yz : tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 37 : index
  %n = arith.constant 29 : index
  %Ab = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %Ab_i0 = %c0 to %m step %c1 {
    scf.for %Ab_i1 = %c0 to %n step %c1 {
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
  %xb = memref.alloc(%n) : memref<?xf32>
  scf.for %xb_i0 = %c0 to %n step %c1 {
    %xb_w0 = arith.constant 3 : index
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
  %yt = call @kernel(%A, %x) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?xf32>
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
