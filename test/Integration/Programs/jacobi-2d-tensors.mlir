// PolyBench jacobi-2d: one time step (B from A, then A from B) of the
// 5-point stencil, as a front end emits it: linalg on tensors, new tensors
// returned.
// Source: PolyBench/C 4.2, stencils/jacobi-2d (kernel_jacobi_2d), the body
// of its time loop once
// Translated to MLIR by hand as a user writes it: each half-step a
// linalg.generic over the interior whose five inputs are shifted
// tensor.extract_slice windows of the source, its result put back into the
// target by tensor.insert_slice.
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
// The results bufferize in place into A and B (the insert_slice targets),
// so the entry gains no result arguments: it updates A and B.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=ENTRY
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32>)
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: A_out 
// CHECK: B_out 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048x2048

#id = affine_map<(i, j) -> (i, j)>

func.func @kernel(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %fifth = arith.constant 0.2 : f32
  %n = tensor.dim %A, %c0 : tensor<?x?xf32>
  %ni = arith.subi %n, %c2 : index
  %e = tensor.empty(%ni, %ni) : tensor<?x?xf32>
  // B[i][j] = 0.2 (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
  %ac = tensor.extract_slice %A[1, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %aw = tensor.extract_slice %A[1, 0] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %ae = tensor.extract_slice %A[1, 2] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %as = tensor.extract_slice %A[2, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %an = tensor.extract_slice %A[0, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %bi = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ac, %aw, %ae, %as, %an : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%c: f32, %w: f32, %ea: f32, %s: f32, %no: f32, %o: f32):
    %t0 = arith.addf %c, %w : f32
    %t1 = arith.addf %t0, %ea : f32
    %t2 = arith.addf %t1, %s : f32
    %t3 = arith.addf %t2, %no : f32
    %r = arith.mulf %fifth, %t3 : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %B1 = tensor.insert_slice %bi into %B[1, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
  // A[i][j] = 0.2 (B[i][j] + B[i][j-1] + B[i][j+1] + B[i+1][j] + B[i-1][j])
  %bc = tensor.extract_slice %B1[1, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %bw = tensor.extract_slice %B1[1, 0] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %be = tensor.extract_slice %B1[1, 2] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %bs = tensor.extract_slice %B1[2, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %bn = tensor.extract_slice %B1[0, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %ai = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bc, %bw, %be, %bs, %bn : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%c: f32, %w: f32, %ea: f32, %s: f32, %no: f32, %o: f32):
    %t0 = arith.addf %c, %w : f32
    %t1 = arith.addf %t0, %ea : f32
    %t2 = arith.addf %t1, %s : f32
    %t3 = arith.addf %t2, %no : f32
    %r = arith.mulf %fifth, %t3 : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %A1 = tensor.insert_slice %ai into %A[1, 1] [%ni, %ni] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
  return %A1, %B1 : tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 31 : index
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
  %A_outt, %B_outt = call @kernel(%A, %B) : (tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  %A_out = bufferization.to_buffer %A_outt read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %A_out_zero = arith.constant 0.0 : f32
  %A_out_acc0 = scf.for %A_out_k0 = %c0 to %n step %c1 iter_args(%A_out_a0 = %A_out_zero) -> f32 {
    %A_out_acc1 = scf.for %A_out_k1 = %c0 to %n step %c1 iter_args(%A_out_a1 = %A_out_a0) -> f32 {
      %v = memref.load %A_out[%A_out_k0, %A_out_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %ww0 = arith.constant 3 : index
      %wp0 = arith.muli %A_out_k0, %ww0 : index
      %ws1 = arith.addi %wp0, %A_out_k1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %ws1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %A_out_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %A_out_acc1 : f32
  }
  %A_out_scale = arith.constant 1000.0 : f32
  %A_out_scaled = arith.mulf %A_out_acc0, %A_out_scale : f32
  %A_out_rounded = math.roundeven %A_out_scaled : f32
  vector.print str "A_out "
  vector.print %A_out_rounded : f32
  %B_out = bufferization.to_buffer %B_outt read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %B_out_zero = arith.constant 0.0 : f32
  %B_out_acc0 = scf.for %B_out_k0 = %c0 to %n step %c1 iter_args(%B_out_a0 = %B_out_zero) -> f32 {
    %B_out_acc1 = scf.for %B_out_k1 = %c0 to %n step %c1 iter_args(%B_out_a1 = %B_out_a0) -> f32 {
      %v = memref.load %B_out[%B_out_k0, %B_out_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %ww0 = arith.constant 3 : index
      %wp0 = arith.muli %B_out_k0, %ww0 : index
      %ws1 = arith.addi %wp0, %B_out_k1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %ws1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %B_out_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %B_out_acc1 : f32
  }
  %B_out_scale = arith.constant 1000.0 : f32
  %B_out_scaled = arith.mulf %B_out_acc0, %B_out_scale : f32
  %B_out_rounded = math.roundeven %B_out_scaled : f32
  vector.print str "B_out "
  vector.print %B_out_rounded : f32
  return
}
