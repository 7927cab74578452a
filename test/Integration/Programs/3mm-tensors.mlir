// PolyBench 3mm: G = (A B) (C D), as a front end emits it: linalg on
// tensors, a new tensor returned.
// Source: PolyBench/C 4.2, linear-algebra/kernels/3mm (kernel_3mm)
// Translated to MLIR by hand as a user writes it: three linalg.matmul on
// tensors (E = A B, F = C D, G = E F), each into a zero-filled tensor.empty.
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: G 
// BUNDLE: --entry kernel --shape 0=512x512 --shape 1=512x512 --shape 2=512x512 --shape 3=512x512 --shape 4=512x512

func.func @kernel(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>, %C: tensor<?x?xf32>, %D: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ni = tensor.dim %A, %c0 : tensor<?x?xf32>
  %nj = tensor.dim %B, %c1 : tensor<?x?xf32>
  %nl = tensor.dim %D, %c1 : tensor<?x?xf32>
  // E = A B
  %ee = tensor.empty(%ni, %nj) : tensor<?x?xf32>
  %ez = linalg.fill ins(%zero : f32) outs(%ee : tensor<?x?xf32>) -> tensor<?x?xf32>
  %E = linalg.matmul ins(%A, %B : tensor<?x?xf32>, tensor<?x?xf32>) outs(%ez : tensor<?x?xf32>) -> tensor<?x?xf32>
  // F = C D
  %fe = tensor.empty(%nj, %nl) : tensor<?x?xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%fe : tensor<?x?xf32>) -> tensor<?x?xf32>
  %F = linalg.matmul ins(%C, %D : tensor<?x?xf32>, tensor<?x?xf32>) outs(%fz : tensor<?x?xf32>) -> tensor<?x?xf32>
  // G = E F
  %ge = tensor.empty(%ni, %nl) : tensor<?x?xf32>
  %gz = linalg.fill ins(%zero : f32) outs(%ge : tensor<?x?xf32>) -> tensor<?x?xf32>
  %G = linalg.matmul ins(%E, %F : tensor<?x?xf32>, tensor<?x?xf32>) outs(%gz : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %G : tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = arith.constant 19 : index
  %nj = arith.constant 23 : index
  %nk = arith.constant 17 : index
  %nl = arith.constant 21 : index
  %nm = arith.constant 15 : index
  %Ab = memref.alloc(%ni, %nk) : memref<?x?xf32>
  scf.for %Ab_i0 = %c0 to %ni step %c1 {
    scf.for %Ab_i1 = %c0 to %nk step %c1 {
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
  %Bb = memref.alloc(%nk, %nj) : memref<?x?xf32>
  scf.for %Bb_i0 = %c0 to %nk step %c1 {
    scf.for %Bb_i1 = %c0 to %nj step %c1 {
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
  %Cb = memref.alloc(%nj, %nm) : memref<?x?xf32>
  scf.for %Cb_i0 = %c0 to %nj step %c1 {
    scf.for %Cb_i1 = %c0 to %nm step %c1 {
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
  %Db = memref.alloc(%nm, %nl) : memref<?x?xf32>
  scf.for %Db_i0 = %c0 to %nm step %c1 {
    scf.for %Db_i1 = %c0 to %nl step %c1 {
      %Db_w0 = arith.constant 7 : index
      %Db_p0 = arith.muli %Db_i0, %Db_w0 : index
      %Db_w1 = arith.constant 11 : index
      %Db_p1 = arith.muli %Db_i1, %Db_w1 : index
      %Db_s1 = arith.addi %Db_p0, %Db_p1 : index
      %Db_m = arith.constant 5 : index
      %Db_r = arith.remui %Db_s1, %Db_m : index
      %Db_ri = arith.index_cast %Db_r : index to i32
      %Db_rf = arith.sitofp %Db_ri : i32 to f32
      %Db_h = arith.constant 2.0 : f32
      %Db_v = arith.subf %Db_rf, %Db_h : f32
      memref.store %Db_v, %Db[%Db_i0, %Db_i1] : memref<?x?xf32>
    }
  }
  %D = bufferization.to_tensor %Db restrict : memref<?x?xf32> to tensor<?x?xf32>
  %Gt = call @kernel(%A, %B, %C, %D) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %G = bufferization.to_buffer %Gt read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %G_zero = arith.constant 0.0 : f32
  %G_acc0 = scf.for %G_k0 = %c0 to %ni step %c1 iter_args(%G_a0 = %G_zero) -> f32 {
    %G_acc1 = scf.for %G_k1 = %c0 to %nl step %c1 iter_args(%G_a1 = %G_a0) -> f32 {
      %v = memref.load %G[%G_k0, %G_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %ww0 = arith.constant 3 : index
      %wp0 = arith.muli %G_k0, %ww0 : index
      %ws1 = arith.addi %wp0, %G_k1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %ws1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %G_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %G_acc1 : f32
  }
  vector.print str "G "
  vector.print %G_acc0 : f32
  return
}
