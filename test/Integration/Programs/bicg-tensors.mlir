// PolyBench bicg: s = A^T r and q = A p, the BiCG sub-kernel, as a front end
// emits it: linalg on tensors, new tensors returned.
// Source: PolyBench/C 4.2, linear-algebra/kernels/bicg (kernel_bicg)
// Translated to MLIR by hand as a user writes it: linalg.vecmat (r^T A) for s
// and linalg.matvec for q, each into a zero-filled tensor.empty.
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32> {threadbind.result = 0 : i64}, %{{.*}}: memref<?xf32> {threadbind.result = 1 : i64})
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: s 
// CHECK: q 
// BUNDLE: --entry kernel --shape 0=2048x1536 --shape 1=2048 --shape 2=1536 --shape 3=1536 --shape 4=2048

func.func @kernel(%A: tensor<?x?xf32>, %r: tensor<?xf32>, %p: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %A, %c0 : tensor<?x?xf32>
  %m = tensor.dim %A, %c1 : tensor<?x?xf32>
  // s = A^T r, as r^T A
  %se = tensor.empty(%m) : tensor<?xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.vecmat ins(%r, %A : tensor<?xf32>, tensor<?x?xf32>) outs(%sz : tensor<?xf32>) -> tensor<?xf32>
  // q = A p
  %qe = tensor.empty(%n) : tensor<?xf32>
  %qz = linalg.fill ins(%zero : f32) outs(%qe : tensor<?xf32>) -> tensor<?xf32>
  %q = linalg.matvec ins(%A, %p : tensor<?x?xf32>, tensor<?xf32>) outs(%qz : tensor<?xf32>) -> tensor<?xf32>
  return %s, %q : tensor<?xf32>, tensor<?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 37 : index
  %m = arith.constant 29 : index
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
  %rb = memref.alloc(%n) : memref<?xf32>
  scf.for %rb_i0 = %c0 to %n step %c1 {
    %rb_w0 = arith.constant 7 : index
    %rb_p0 = arith.muli %rb_i0, %rb_w0 : index
    %rb_m = arith.constant 4 : index
    %rb_r = arith.remui %rb_p0, %rb_m : index
    %rb_ri = arith.index_cast %rb_r : index to i32
    %rb_rf = arith.sitofp %rb_ri : i32 to f32
    %rb_h = arith.constant 2.0 : f32
    %rb_v = arith.subf %rb_rf, %rb_h : f32
    memref.store %rb_v, %rb[%rb_i0] : memref<?xf32>
  }
  %r = bufferization.to_tensor %rb restrict : memref<?xf32> to tensor<?xf32>
  %pb = memref.alloc(%m) : memref<?xf32>
  scf.for %pb_i0 = %c0 to %m step %c1 {
    %pb_w0 = arith.constant 7 : index
    %pb_p0 = arith.muli %pb_i0, %pb_w0 : index
    %pb_m = arith.constant 3 : index
    %pb_r = arith.remui %pb_p0, %pb_m : index
    %pb_ri = arith.index_cast %pb_r : index to i32
    %pb_rf = arith.sitofp %pb_ri : i32 to f32
    %pb_h = arith.constant 1.0 : f32
    %pb_v = arith.subf %pb_rf, %pb_h : f32
    memref.store %pb_v, %pb[%pb_i0] : memref<?xf32>
  }
  %p = bufferization.to_tensor %pb restrict : memref<?xf32> to tensor<?xf32>
  %st, %qt = call @kernel(%A, %r, %p) : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  %s = bufferization.to_buffer %st read_only : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %s_zero = arith.constant 0.0 : f32
  %s_acc0 = scf.for %s_k0 = %c0 to %m step %c1 iter_args(%s_a0 = %s_zero) -> f32 {
    %v = memref.load %s[%s_k0] : memref<?xf32, strided<[?], offset: ?>>
    %c7 = arith.constant 7 : index
    %w = arith.remui %s_k0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %s_a0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "s "
  vector.print %s_acc0 : f32
  %q = bufferization.to_buffer %qt read_only : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %q_zero = arith.constant 0.0 : f32
  %q_acc0 = scf.for %q_k0 = %c0 to %n step %c1 iter_args(%q_a0 = %q_zero) -> f32 {
    %v = memref.load %q[%q_k0] : memref<?xf32, strided<[?], offset: ?>>
    %c7 = arith.constant 7 : index
    %w = arith.remui %q_k0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %q_a0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "q "
  vector.print %q_acc0 : f32
  return
}
