// PolyBench doitgen: A[r][q][p] = sum_s A[r][q][s] C4[s][p], as a front end
// emits it: linalg on tensors, a new tensor returned.
// Source: PolyBench/C 4.2, linear-algebra/kernels/doitgen (kernel_doitgen)
// Translated to MLIR by hand as a user writes it: one linalg.generic over
// (r, q, p, s) contracting over s into a zero-filled 3-D tensor.empty
// (PolyBench's sum temporary and copy back become the returned tensor).
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?x?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: A_out 
// BUNDLE: --entry kernel --shape 0=128x128x128 --shape 1=128x128 --shape 2=128x128x128

#a = affine_map<(r, q, p, s) -> (r, q, s)>
#c = affine_map<(r, q, p, s) -> (s, p)>
#o = affine_map<(r, q, p, s) -> (r, q, p)>

func.func @kernel(%A: tensor<?x?x?xf32>, %C4: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nr = tensor.dim %A, %c0 : tensor<?x?x?xf32>
  %nq = tensor.dim %A, %c1 : tensor<?x?x?xf32>
  %np = tensor.dim %C4, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%nr, %nq, %np) : tensor<?x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %sum = linalg.generic {indexing_maps = [#a, #c, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %C4 : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?x?xf32>) {
  ^bb0(%av: f32, %cv: f32, %acc: f32):
    %p = arith.mulf %av, %cv : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<?x?x?xf32>
  return %sum : tensor<?x?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nr = arith.constant 7 : index
  %nq = arith.constant 9 : index
  %np = arith.constant 11 : index
  %Ab = memref.alloc(%nr, %nq, %np) : memref<?x?x?xf32>
  scf.for %Ab_i0 = %c0 to %nr step %c1 {
    scf.for %Ab_i1 = %c0 to %nq step %c1 {
      scf.for %Ab_i2 = %c0 to %np step %c1 {
        %Ab_w0 = arith.constant 7 : index
        %Ab_p0 = arith.muli %Ab_i0, %Ab_w0 : index
        %Ab_w1 = arith.constant 11 : index
        %Ab_p1 = arith.muli %Ab_i1, %Ab_w1 : index
        %Ab_s1 = arith.addi %Ab_p0, %Ab_p1 : index
        %Ab_w2 = arith.constant 13 : index
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
  %C4b = memref.alloc(%np, %np) : memref<?x?xf32>
  scf.for %C4b_i0 = %c0 to %np step %c1 {
    scf.for %C4b_i1 = %c0 to %np step %c1 {
      %C4b_w0 = arith.constant 7 : index
      %C4b_p0 = arith.muli %C4b_i0, %C4b_w0 : index
      %C4b_w1 = arith.constant 11 : index
      %C4b_p1 = arith.muli %C4b_i1, %C4b_w1 : index
      %C4b_s1 = arith.addi %C4b_p0, %C4b_p1 : index
      %C4b_m = arith.constant 3 : index
      %C4b_r = arith.remui %C4b_s1, %C4b_m : index
      %C4b_ri = arith.index_cast %C4b_r : index to i32
      %C4b_rf = arith.sitofp %C4b_ri : i32 to f32
      %C4b_h = arith.constant 1.0 : f32
      %C4b_v = arith.subf %C4b_rf, %C4b_h : f32
      memref.store %C4b_v, %C4b[%C4b_i0, %C4b_i1] : memref<?x?xf32>
    }
  }
  %C4 = bufferization.to_tensor %C4b restrict : memref<?x?xf32> to tensor<?x?xf32>
  %A_outt = call @kernel(%A, %C4) : (tensor<?x?x?xf32>, tensor<?x?xf32>) -> tensor<?x?x?xf32>
  %A_out = bufferization.to_buffer %A_outt read_only : tensor<?x?x?xf32> to memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
  %A_out_zero = arith.constant 0.0 : f32
  %A_out_acc0 = scf.for %A_out_k0 = %c0 to %nr step %c1 iter_args(%A_out_a0 = %A_out_zero) -> f32 {
    %A_out_acc1 = scf.for %A_out_k1 = %c0 to %nq step %c1 iter_args(%A_out_a1 = %A_out_a0) -> f32 {
      %A_out_acc2 = scf.for %A_out_k2 = %c0 to %np step %c1 iter_args(%A_out_a2 = %A_out_a1) -> f32 {
        %v = memref.load %A_out[%A_out_k0, %A_out_k1, %A_out_k2] : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
        %ww0 = arith.constant 4 : index
        %wp0 = arith.muli %A_out_k0, %ww0 : index
        %ww1 = arith.constant 3 : index
        %wp1 = arith.muli %A_out_k1, %ww1 : index
        %ws1 = arith.addi %wp0, %wp1 : index
        %ws2 = arith.addi %ws1, %A_out_k2 : index
        %c7 = arith.constant 7 : index
        %w = arith.remui %ws2, %c7 : index
        %w1 = arith.addi %w, %c1 : index
        %wi = arith.index_cast %w1 : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        %prod = arith.mulf %v, %wf : f32
        %sum = arith.addf %A_out_a2, %prod : f32
        scf.yield %sum : f32
      }
      scf.yield %A_out_acc2 : f32
    }
    scf.yield %A_out_acc1 : f32
  }
  vector.print str "A_out "
  vector.print %A_out_acc0 : f32
  return
}
