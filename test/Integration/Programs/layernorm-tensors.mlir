// Layer normalisation over the rows of a matrix, as a front end emits it:
// linalg on tensors, a new tensor returned.
// Source: the layer normalisation definition, as torch.nn.functional.layer_norm(x,
// (n,), gamma, beta, eps) computes it over the last dimension (biased
// variance, (x - mean) * rsqrt(var + eps) * gamma + beta)
// Translated to MLIR by hand as a user writes it: linalg.generic on tensors (row sum, mean,
// row sum of squared deviations, rsqrt(var + eps), then the normalised,
// scaled and shifted matrix).
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: out 
// BUNDLE: --entry kernel --shape 0=2048x1024 --shape 1=1024 --shape 2=1024 --shape 3=2048x1024

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#vec = affine_map<(i) -> (i)>

func.func @kernel(%x: tensor<?x?xf32>, %gamma: tensor<?xf32>, %beta: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f32
  %rows = tensor.empty(%m) : tensor<?xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%zeros : tensor<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %mean = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%sum : tensor<?xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.divf %s, %nf : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<?x?xf32>, tensor<?xf32>) outs(%zeros : tensor<?xf32>) {
  ^bb0(%v: f32, %mu: f32, %acc: f32):
    %d = arith.subf %v, %mu : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %rstd = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%sq : tensor<?xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%s: f32, %o: f32):
    %var = arith.divf %s, %nf : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %full = tensor.empty(%m, %n) : tensor<?x?xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%full : tensor<?x?xf32>) {
  ^bb0(%v: f32, %mu: f32, %rs: f32, %g: f32, %b: f32, %o: f32):
    %d = arith.subf %v, %mu : f32
    %xn = arith.mulf %d, %rs : f32
    %s = arith.mulf %xn, %g : f32
    %r = arith.addf %s, %b : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %out : tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 37 : index
  %n = arith.constant 29 : index
  %xb = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %xb_i0 = %c0 to %m step %c1 {
    scf.for %xb_i1 = %c0 to %n step %c1 {
      %xb_w0 = arith.constant 3 : index
      %xb_p0 = arith.muli %xb_i0, %xb_w0 : index
      %xb_w1 = arith.constant 5 : index
      %xb_p1 = arith.muli %xb_i1, %xb_w1 : index
      %xb_s1 = arith.addi %xb_p0, %xb_p1 : index
      %xb_m = arith.constant 11 : index
      %xb_r = arith.remui %xb_s1, %xb_m : index
      %xb_ri = arith.index_cast %xb_r : index to i32
      %xb_rf = arith.sitofp %xb_ri : i32 to f32
      %xb_h = arith.constant 5.0 : f32
      %xb_v = arith.subf %xb_rf, %xb_h : f32
      %xb_sc = arith.constant 0.25 : f32
      %xb_vs = arith.mulf %xb_v, %xb_sc : f32
      memref.store %xb_vs, %xb[%xb_i0, %xb_i1] : memref<?x?xf32>
    }
  }
  %gb = memref.alloc(%n) : memref<?xf32>
  scf.for %gb_i0 = %c0 to %n step %c1 {
    %gb_w0 = arith.constant 3 : index
    %gb_p0 = arith.muli %gb_i0, %gb_w0 : index
    %gb_m = arith.constant 5 : index
    %gb_r = arith.remui %gb_p0, %gb_m : index
    %gb_ri = arith.index_cast %gb_r : index to i32
    %gb_rf = arith.sitofp %gb_ri : i32 to f32
    %gb_h = arith.constant 2.0 : f32
    %gb_v = arith.subf %gb_rf, %gb_h : f32
    memref.store %gb_v, %gb[%gb_i0] : memref<?xf32>
  }
  %bb = memref.alloc(%n) : memref<?xf32>
  scf.for %bb_i0 = %c0 to %n step %c1 {
    %bb_w0 = arith.constant 3 : index
    %bb_p0 = arith.muli %bb_i0, %bb_w0 : index
    %bb_m = arith.constant 4 : index
    %bb_r = arith.remui %bb_p0, %bb_m : index
    %bb_ri = arith.index_cast %bb_r : index to i32
    %bb_rf = arith.sitofp %bb_ri : i32 to f32
    %bb_h = arith.constant 2.0 : f32
    %bb_v = arith.subf %bb_rf, %bb_h : f32
    memref.store %bb_v, %bb[%bb_i0] : memref<?xf32>
  }
  %x = bufferization.to_tensor %xb restrict : memref<?x?xf32> to tensor<?x?xf32>
  %gamma = bufferization.to_tensor %gb restrict : memref<?xf32> to tensor<?xf32>
  %beta = bufferization.to_tensor %bb restrict : memref<?xf32> to tensor<?xf32>
  %y = call @kernel(%x, %gamma, %beta) : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %out = bufferization.to_buffer %y read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  // A weighted checksum, rounded so that emulation and reference agree.
  %out_zero = arith.constant 0.0 : f32
  %out_acc0 = scf.for %out_k0 = %c0 to %m step %c1 iter_args(%out_a0 = %out_zero) -> f32 {
    %out_acc1 = scf.for %out_k1 = %c0 to %n step %c1 iter_args(%out_a1 = %out_a0) -> f32 {
      %v = memref.load %out[%out_k0, %out_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c7 = arith.constant 7 : index
      %w = arith.remui %out_k1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %out_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %out_acc1 : f32
  }
  %out_scale = arith.constant 1000.0 : f32
  %out_scaled = arith.mulf %out_acc0, %out_scale : f32
  %out_rounded = math.roundeven %out_scaled : f32
  vector.print str "out "
  vector.print %out_rounded : f32
  return
}
