// PolyBench covariance: column means, centring, and the covariance matrix (upper triangle, mirrored).
// Source: PolyBench/C 4.2, datamining/covariance (kernel_covariance)
// Translated to MLIR by hand as a user writes it: an scf.parallel over columns with an iter_args sum for the means, an scf.parallel over (i, j) to centre, and an scf.parallel over i around an scf.parallel over j from i (the triangle) with an iter_args sum over the samples.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// The same with the 32-bit index copies (threadbind-narrow-indices).
// RUN: threadbind-opt %t.default.mlir -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: data 
// CHECK: mean 
// CHECK: cov 
// BUNDLE: --entry kernel --shape 0=1024x1024 --shape 1=1024 --shape 2=1024x1024

func.func @kernel(%data: memref<?x?xf32>, %mean: memref<?xf32>, %cov: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %data, %c0 : memref<?x?xf32>
  %m = memref.dim %data, %c1 : memref<?x?xf32>
  %ni = arith.index_cast %n : index to i32
  %float_n = arith.sitofp %ni : i32 to f32
  %float_n1 = arith.subf %float_n, %one : f32
  // mean[j] = sum_i data[i][j] / n: a thread a column.
  scf.parallel (%j) = (%c0) to (%m) step (%c1) {
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %d = memref.load %data[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %d : f32
      scf.yield %t : f32
    }
    %mu = arith.divf %s, %float_n : f32
    memref.store %mu, %mean[%j] : memref<?xf32>
  }
  // Centre the data.
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %d = memref.load %data[%i, %j] : memref<?x?xf32>
    %mu = memref.load %mean[%j] : memref<?xf32>
    %c = arith.subf %d, %mu : f32
    memref.store %c, %data[%i, %j] : memref<?x?xf32>
  }
  // cov[i][j] = cov[j][i] = sum_k data[k][i] data[k][j] / (n - 1), j >= i.
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    scf.parallel (%j) = (%i) to (%m) step (%c1) {
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %a = memref.load %data[%k, %i] : memref<?x?xf32>
        %b = memref.load %data[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      %v = arith.divf %s, %float_n1 : f32
      memref.store %v, %cov[%i, %j] : memref<?x?xf32>
      memref.store %v, %cov[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  // The checksums fold in loop order (a store each iteration keeps a
  // loop sequential): the mapped program may reassociate float sums,
  // which would show in the printed digits.
  %order = memref.alloca() : memref<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 37 : index
  %m = arith.constant 29 : index
  %data = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %data_i0 = %c0 to %n step %c1 {
    scf.for %data_i1 = %c0 to %m step %c1 {
      %data_w0 = arith.constant 3 : index
      %data_p0 = arith.muli %data_i0, %data_w0 : index
      %data_w1 = arith.constant 5 : index
      %data_p1 = arith.muli %data_i1, %data_w1 : index
      %data_s1 = arith.addi %data_p0, %data_p1 : index
      %data_m = arith.constant 5 : index
      %data_r = arith.remui %data_s1, %data_m : index
      %data_ri = arith.index_cast %data_r : index to i32
      %data_rf = arith.sitofp %data_ri : i32 to f32
      %data_h = arith.constant 2.0 : f32
      %data_v = arith.subf %data_rf, %data_h : f32
      memref.store %data_v, %data[%data_i0, %data_i1] : memref<?x?xf32>
    }
  }
  %mean = memref.alloc(%m) : memref<?xf32>
  scf.for %mean_i0 = %c0 to %m step %c1 {
    %mean_w0 = arith.constant 3 : index
    %mean_p0 = arith.muli %mean_i0, %mean_w0 : index
    %mean_m = arith.constant 3 : index
    %mean_r = arith.remui %mean_p0, %mean_m : index
    %mean_ri = arith.index_cast %mean_r : index to i32
    %mean_rf = arith.sitofp %mean_ri : i32 to f32
    %mean_h = arith.constant 1.0 : f32
    %mean_v = arith.subf %mean_rf, %mean_h : f32
    memref.store %mean_v, %mean[%mean_i0] : memref<?xf32>
  }
  %cov = memref.alloc(%m, %m) : memref<?x?xf32>
  scf.for %cov_i0 = %c0 to %m step %c1 {
    scf.for %cov_i1 = %c0 to %m step %c1 {
      %cov_w0 = arith.constant 3 : index
      %cov_p0 = arith.muli %cov_i0, %cov_w0 : index
      %cov_w1 = arith.constant 5 : index
      %cov_p1 = arith.muli %cov_i1, %cov_w1 : index
      %cov_s1 = arith.addi %cov_p0, %cov_p1 : index
      %cov_m = arith.constant 3 : index
      %cov_r = arith.remui %cov_s1, %cov_m : index
      %cov_ri = arith.index_cast %cov_r : index to i32
      %cov_rf = arith.sitofp %cov_ri : i32 to f32
      %cov_h = arith.constant 1.0 : f32
      %cov_v = arith.subf %cov_rf, %cov_h : f32
      memref.store %cov_v, %cov[%cov_i0, %cov_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%data, %mean, %cov) : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  %data_zero = arith.constant 0.0 : f32
  %data_sum = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %data_zero) -> f32 {
   %r = scf.for %j = %c0 to %m step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %data[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %m : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
   memref.store %r, %order[] : memref<f32>
   scf.yield %r : f32
  }
  %data_scale = arith.constant 1000.0 : f32
  %data_scaled = arith.mulf %data_sum, %data_scale : f32
  %data_round = math.roundeven %data_scaled : f32
  vector.print str "data "
  vector.print %data_round : f32
  %mean_zero = arith.constant 0.0 : f32
  %mean_sum = scf.for %k = %c0 to %m step %c1 iter_args(%a = %mean_zero) -> f32 {
    %v = memref.load %mean[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
  %mean_scale = arith.constant 1000.0 : f32
  %mean_scaled = arith.mulf %mean_sum, %mean_scale : f32
  %mean_round = math.roundeven %mean_scaled : f32
  vector.print str "mean "
  vector.print %mean_round : f32
  %cov_zero = arith.constant 0.0 : f32
  %cov_sum = scf.for %i = %c0 to %m step %c1 iter_args(%a0 = %cov_zero) -> f32 {
   %r = scf.for %j = %c0 to %m step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %cov[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %m : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
   memref.store %r, %order[] : memref<f32>
   scf.yield %r : f32
  }
  %cov_scale = arith.constant 1000.0 : f32
  %cov_scaled = arith.mulf %cov_sum, %cov_scale : f32
  %cov_round = math.roundeven %cov_scaled : f32
  vector.print str "cov "
  vector.print %cov_round : f32
  return
}
