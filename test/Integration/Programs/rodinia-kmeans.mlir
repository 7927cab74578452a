// Rodinia kmeans: the assignment step, each point to the nearest of K centres over F features.
// Source: Rodinia 3.1, kmeans (kmeansPoint in kmeans_cuda_kernel.cu)
// Translated to MLIR by hand as a user writes it: an scf.parallel over the points; the search over the centres an scf.for with (distance, index) iter_args, the squared distance over the features an inner scf.for with iter_args; membership as i32.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
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
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: membership 
// BUNDLE: --entry kernel --shape 0=34x500000 --shape 1=5x34 --shape 2=500000

// features[f][p] holds feature f of point p (the transposed layout the
// CUDA kernel reads), clusters[c][f] the centres.
func.func @kernel(%features: memref<?x?xf32>, %clusters: memref<?x?xf32>, %membership: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %fltmax = arith.constant 3.40282347E+38 : f32
  %none = arith.constant -1 : i32
  %nfeatures = memref.dim %features, %c0 : memref<?x?xf32>
  %npoints = memref.dim %features, %c1 : memref<?x?xf32>
  %nclusters = memref.dim %clusters, %c0 : memref<?x?xf32>
  scf.parallel (%p) = (%c0) to (%npoints) step (%c1) {
    %best:2 = scf.for %c = %c0 to %nclusters step %c1 iter_args(%mind = %fltmax, %idx = %none) -> (f32, i32) {
      %dist = scf.for %f = %c0 to %nfeatures step %c1 iter_args(%acc = %zero) -> f32 {
        %x = memref.load %features[%f, %p] : memref<?x?xf32>
        %y = memref.load %clusters[%c, %f] : memref<?x?xf32>
        %d = arith.subf %x, %y : f32
        %d2 = arith.mulf %d, %d : f32
        %s = arith.addf %acc, %d2 : f32
        scf.yield %s : f32
      }
      %lt = arith.cmpf olt, %dist, %mind : f32
      %ci = arith.index_cast %c : index to i32
      %nd = arith.select %lt, %dist, %mind : f32
      %ni = arith.select %lt, %ci, %idx : i32
      scf.yield %nd, %ni : f32, i32
    }
    memref.store %best#1, %membership[%p] : memref<?xi32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nf = arith.constant 7 : index
  %np = arith.constant 211 : index
  %nc = arith.constant 5 : index
  %features = memref.alloc(%nf, %np) : memref<?x?xf32>
    scf.for %features_i0 = %c0 to %nf step %c1 {
      scf.for %features_i1 = %c0 to %np step %c1 {
        %features_w0 = arith.constant 3 : index
        %features_p0 = arith.muli %features_i0, %features_w0 : index
        %features_w1 = arith.constant 5 : index
        %features_p1 = arith.muli %features_i1, %features_w1 : index
        %features_s1 = arith.addi %features_p0, %features_p1 : index
        %features_m = arith.constant 5 : index
        %features_r = arith.remui %features_s1, %features_m : index
        %features_ri = arith.index_cast %features_r : index to i32
        %features_rf = arith.sitofp %features_ri : i32 to f32
        %features_h = arith.constant 2.0 : f32
        %features_v = arith.subf %features_rf, %features_h : f32
        memref.store %features_v, %features[%features_i0, %features_i1] : memref<?x?xf32>
      }
    }
  %clusters = memref.alloc(%nc, %nf) : memref<?x?xf32>
    scf.for %clusters_i0 = %c0 to %nc step %c1 {
      scf.for %clusters_i1 = %c0 to %nf step %c1 {
        %clusters_w0 = arith.constant 3 : index
        %clusters_p0 = arith.muli %clusters_i0, %clusters_w0 : index
        %clusters_w1 = arith.constant 5 : index
        %clusters_p1 = arith.muli %clusters_i1, %clusters_w1 : index
        %clusters_s1 = arith.addi %clusters_p0, %clusters_p1 : index
        %clusters_m = arith.constant 5 : index
        %clusters_r = arith.remui %clusters_s1, %clusters_m : index
        %clusters_ri = arith.index_cast %clusters_r : index to i32
        %clusters_rf = arith.sitofp %clusters_ri : i32 to f32
        %clusters_h = arith.constant 2.0 : f32
        %clusters_v = arith.subf %clusters_rf, %clusters_h : f32
        memref.store %clusters_v, %clusters[%clusters_i0, %clusters_i1] : memref<?x?xf32>
      }
    }
  %membership = memref.alloc(%np) : memref<?xi32>
    scf.for %membership_i0 = %c0 to %np step %c1 {
      %membership_w0 = arith.constant 3 : index
      %membership_p0 = arith.muli %membership_i0, %membership_w0 : index
      %membership_m = arith.constant 3 : index
      %membership_r = arith.remui %membership_p0, %membership_m : index
      %membership_ri = arith.index_cast %membership_r : index to i32
      %membership_h = arith.constant 1 : i32
      %membership_v = arith.subi %membership_ri, %membership_h : i32
      memref.store %membership_v, %membership[%membership_i0] : memref<?xi32>
    }
  call @kernel(%features, %clusters, %membership) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xi32>) -> ()
  %membership_zero = arith.constant 0.0 : f32
  %membership_a0 = scf.for %membership_k0 = %c0 to %np step %c1 iter_args(%membership_c0 = %membership_zero) -> f32 {
    %membership_ld = memref.load %membership[%membership_k0] : memref<?xi32>
    %membership_ldf = arith.sitofp %membership_ld : i32 to f32
    %q0w = arith.constant 1 : index
    %q0 = arith.muli %membership_k0, %q0w : index
    %c7 = arith.constant 7 : index
    %w = arith.remui %q0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %membership_ldf, %wf : f32
    %sum = arith.addf %membership_c0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "membership "
  vector.print %membership_a0 : f32
  return
}
