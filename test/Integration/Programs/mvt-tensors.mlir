// PolyBench mvt: x1 = x1 + A y1 and x2 = x2 + A^T y2, as a front end emits
// it: linalg on tensors, new tensors returned.
// Source: PolyBench/C 4.2, linear-algebra/kernels/mvt (kernel_mvt)
// Translated to MLIR by hand as a user writes it: linalg.matvec accumulating
// into x1 and linalg.vecmat (y2^T A) accumulating into x2, the input vectors
// their outs operands.
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
// The results bufferize in place into x1 and x2 (their outs operands), so
// the entry gains no result arguments: it updates x1 and x2.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=ENTRY
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>)
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: x1_out 
// CHECK: x2_out 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048 --shape 2=2048 --shape 3=2048 --shape 4=2048

func.func @kernel(%A: tensor<?x?xf32>, %y1: tensor<?xf32>, %y2: tensor<?xf32>, %x1: tensor<?xf32>, %x2: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  // x1 = x1 + A y1
  %r1 = linalg.matvec ins(%A, %y1 : tensor<?x?xf32>, tensor<?xf32>) outs(%x1 : tensor<?xf32>) -> tensor<?xf32>
  // x2 = x2 + A^T y2, as y2^T A
  %r2 = linalg.vecmat ins(%y2, %A : tensor<?xf32>, tensor<?x?xf32>) outs(%x2 : tensor<?xf32>) -> tensor<?xf32>
  return %r1, %r2 : tensor<?xf32>, tensor<?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 41 : index
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
  %y1b = memref.alloc(%n) : memref<?xf32>
  scf.for %y1b_i0 = %c0 to %n step %c1 {
    %y1b_w0 = arith.constant 7 : index
    %y1b_p0 = arith.muli %y1b_i0, %y1b_w0 : index
    %y1b_m = arith.constant 4 : index
    %y1b_r = arith.remui %y1b_p0, %y1b_m : index
    %y1b_ri = arith.index_cast %y1b_r : index to i32
    %y1b_rf = arith.sitofp %y1b_ri : i32 to f32
    %y1b_h = arith.constant 2.0 : f32
    %y1b_v = arith.subf %y1b_rf, %y1b_h : f32
    memref.store %y1b_v, %y1b[%y1b_i0] : memref<?xf32>
  }
  %y1 = bufferization.to_tensor %y1b restrict : memref<?xf32> to tensor<?xf32>
  %y2b = memref.alloc(%n) : memref<?xf32>
  scf.for %y2b_i0 = %c0 to %n step %c1 {
    %y2b_w0 = arith.constant 7 : index
    %y2b_p0 = arith.muli %y2b_i0, %y2b_w0 : index
    %y2b_m = arith.constant 3 : index
    %y2b_r = arith.remui %y2b_p0, %y2b_m : index
    %y2b_ri = arith.index_cast %y2b_r : index to i32
    %y2b_rf = arith.sitofp %y2b_ri : i32 to f32
    %y2b_h = arith.constant 1.0 : f32
    %y2b_v = arith.subf %y2b_rf, %y2b_h : f32
    memref.store %y2b_v, %y2b[%y2b_i0] : memref<?xf32>
  }
  %y2 = bufferization.to_tensor %y2b restrict : memref<?xf32> to tensor<?xf32>
  %x1b = memref.alloc(%n) : memref<?xf32>
  scf.for %x1b_i0 = %c0 to %n step %c1 {
    %x1b_w0 = arith.constant 7 : index
    %x1b_p0 = arith.muli %x1b_i0, %x1b_w0 : index
    %x1b_m = arith.constant 3 : index
    %x1b_r = arith.remui %x1b_p0, %x1b_m : index
    %x1b_ri = arith.index_cast %x1b_r : index to i32
    %x1b_rf = arith.sitofp %x1b_ri : i32 to f32
    %x1b_h = arith.constant 1.0 : f32
    %x1b_v = arith.subf %x1b_rf, %x1b_h : f32
    memref.store %x1b_v, %x1b[%x1b_i0] : memref<?xf32>
  }
  %x1 = bufferization.to_tensor %x1b restrict : memref<?xf32> to tensor<?xf32>
  %x2b = memref.alloc(%n) : memref<?xf32>
  scf.for %x2b_i0 = %c0 to %n step %c1 {
    %x2b_w0 = arith.constant 7 : index
    %x2b_p0 = arith.muli %x2b_i0, %x2b_w0 : index
    %x2b_m = arith.constant 5 : index
    %x2b_r = arith.remui %x2b_p0, %x2b_m : index
    %x2b_ri = arith.index_cast %x2b_r : index to i32
    %x2b_rf = arith.sitofp %x2b_ri : i32 to f32
    %x2b_h = arith.constant 2.0 : f32
    %x2b_v = arith.subf %x2b_rf, %x2b_h : f32
    memref.store %x2b_v, %x2b[%x2b_i0] : memref<?xf32>
  }
  %x2 = bufferization.to_tensor %x2b restrict : memref<?xf32> to tensor<?xf32>
  %x1_outt, %x2_outt = call @kernel(%A, %y1, %y2, %x1, %x2) : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  %x1_out = bufferization.to_buffer %x1_outt read_only : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %x1_out_zero = arith.constant 0.0 : f32
  %x1_out_acc0 = scf.for %x1_out_k0 = %c0 to %n step %c1 iter_args(%x1_out_a0 = %x1_out_zero) -> f32 {
    %v = memref.load %x1_out[%x1_out_k0] : memref<?xf32, strided<[?], offset: ?>>
    %c7 = arith.constant 7 : index
    %w = arith.remui %x1_out_k0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %x1_out_a0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "x1_out "
  vector.print %x1_out_acc0 : f32
  %x2_out = bufferization.to_buffer %x2_outt read_only : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %x2_out_zero = arith.constant 0.0 : f32
  %x2_out_acc0 = scf.for %x2_out_k0 = %c0 to %n step %c1 iter_args(%x2_out_a0 = %x2_out_zero) -> f32 {
    %v = memref.load %x2_out[%x2_out_k0] : memref<?xf32, strided<[?], offset: ?>>
    %c7 = arith.constant 7 : index
    %w = arith.remui %x2_out_k0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %x2_out_a0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "x2_out "
  vector.print %x2_out_acc0 : f32
  return
}
