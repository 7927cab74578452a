// PolyBench covariance: the covariance matrix of the columns of data, as a
// front end emits it: linalg on tensors, a new tensor returned. The full
// matrix is computed (PolyBench computes the upper triangle and mirrors it).
// Source: PolyBench/C 4.2, datamining/covariance (kernel_covariance)
// Translated to MLIR by hand as a user writes it: the column means by a
// reduction linalg.generic and a divide, the data centred by an elementwise
// linalg.generic, then linalg.transpose and linalg.matmul for the product
// of the centred data with itself, divided by float_n - 1.
// The harness uses 32 observations, so the means and the centred data are
// exact in f32 and the mapped program's reordered sums agree exactly.
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
// ENTRY: func.func @kernel(%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?x?xf32> {threadbind.result = 0 : i64})
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: cov 
// BUNDLE: --entry kernel --shape 0=1024x768 --shape 1=768x768

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#vec = affine_map<(j) -> (j)>

func.func @kernel(%data: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = tensor.dim %data, %c0 : tensor<?x?xf32>
  %m = tensor.dim %data, %c1 : tensor<?x?xf32>
  %ni = arith.index_cast %n : index to i64
  %float_n = arith.sitofp %ni : i64 to f32
  %n1 = arith.subf %float_n, %one : f32
  // mean[j] = sum_i data[i][j] / float_n
  %me = tensor.empty(%m) : tensor<?xf32>
  %mz = linalg.fill ins(%zero : f32) outs(%me : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%data : tensor<?x?xf32>) outs(%mz : tensor<?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %mean = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%sum : tensor<?xf32>) outs(%me : tensor<?xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.divf %s, %float_n : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  // data[i][j] -= mean[j]
  %de = tensor.empty(%n, %m) : tensor<?x?xf32>
  %cent = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%data, %mean : tensor<?x?xf32>, tensor<?xf32>) outs(%de : tensor<?x?xf32>) {
  ^bb0(%v: f32, %mu: f32, %o: f32):
    %r = arith.subf %v, %mu : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  // cov = cent^T cent / (float_n - 1)
  %te = tensor.empty(%m, %n) : tensor<?x?xf32>
  %centT = linalg.transpose ins(%cent : tensor<?x?xf32>) outs(%te : tensor<?x?xf32>) permutation = [1, 0]
  %ce = tensor.empty(%m, %m) : tensor<?x?xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x?xf32>) -> tensor<?x?xf32>
  %prod = linalg.matmul ins(%centT, %cent : tensor<?x?xf32>, tensor<?x?xf32>) outs(%cz : tensor<?x?xf32>) -> tensor<?x?xf32>
  %cov = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%prod : tensor<?x?xf32>) outs(%ce : tensor<?x?xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.divf %p, %n1 : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %cov : tensor<?x?xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 32 : index
  %m = arith.constant 29 : index
  %datab = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %datab_i0 = %c0 to %n step %c1 {
    scf.for %datab_i1 = %c0 to %m step %c1 {
      %datab_w0 = arith.constant 7 : index
      %datab_p0 = arith.muli %datab_i0, %datab_w0 : index
      %datab_w1 = arith.constant 11 : index
      %datab_p1 = arith.muli %datab_i1, %datab_w1 : index
      %datab_s1 = arith.addi %datab_p0, %datab_p1 : index
      %datab_m = arith.constant 5 : index
      %datab_r = arith.remui %datab_s1, %datab_m : index
      %datab_ri = arith.index_cast %datab_r : index to i32
      %datab_rf = arith.sitofp %datab_ri : i32 to f32
      %datab_h = arith.constant 2.0 : f32
      %datab_v = arith.subf %datab_rf, %datab_h : f32
      memref.store %datab_v, %datab[%datab_i0, %datab_i1] : memref<?x?xf32>
    }
  }
  %data = bufferization.to_tensor %datab restrict : memref<?x?xf32> to tensor<?x?xf32>
  %covt = call @kernel(%data) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %cov = bufferization.to_buffer %covt read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %cov_zero = arith.constant 0.0 : f32
  %cov_acc0 = scf.for %cov_k0 = %c0 to %m step %c1 iter_args(%cov_a0 = %cov_zero) -> f32 {
    %cov_acc1 = scf.for %cov_k1 = %c0 to %m step %c1 iter_args(%cov_a1 = %cov_a0) -> f32 {
      %v = memref.load %cov[%cov_k0, %cov_k1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %ww0 = arith.constant 3 : index
      %wp0 = arith.muli %cov_k0, %ww0 : index
      %ws1 = arith.addi %wp0, %cov_k1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %ws1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v, %wf : f32
      %sum = arith.addf %cov_a1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %cov_acc1 : f32
  }
  vector.print str "cov "
  vector.print %cov_acc0 : f32
  return
}
