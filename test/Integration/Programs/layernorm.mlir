// Layer normalisation over the rows of a matrix, as a user writes it in
// scf: one parallel loop over rows, mean, variance and the normalised row.
// Source: the layer normalisation definition, as torch.nn.functional.layer_norm(x,
// (n,), gamma, beta, eps) computes it over the last dimension (biased
// variance, (x - mean) * rsqrt(var + eps) * gamma + beta)
// Translated to MLIR by hand as a user writes it: one scf.parallel over rows whose body holds
// the mean and the variance as scf.for iter_args reductions, then an scf.for
// that stores (x - mean) * rsqrt(var + eps) * gamma[j] + beta[j].
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
// BOUND-DAG: remark: one block per outer iteration
// CHECK: out 
// BUNDLE: --entry kernel --shape 0=2048x1024 --shape 1=1024 --shape 2=1024 --shape 3=2048x1024

func.func @kernel(%x: memref<?x?xf32>, %gamma: memref<?xf32>, %beta: memref<?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f32
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    // The row's mean.
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %r = arith.addf %acc, %v : f32
      scf.yield %r : f32
    }
    %mean = arith.divf %sum, %nf : f32
    // The row's (biased) variance.
    %sq = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %d = arith.subf %v, %mean : f32
      %d2 = arith.mulf %d, %d : f32
      %r = arith.addf %acc, %d2 : f32
      scf.yield %r : f32
    }
    %var = arith.divf %sq, %nf : f32
    %ve = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %ve : f32
    // Normalise, scale by gamma and shift by beta.
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %d = arith.subf %v, %mean : f32
      %xn = arith.mulf %d, %rstd : f32
      %g = memref.load %gamma[%j] : memref<?xf32>
      %b = memref.load %beta[%j] : memref<?xf32>
      %s = arith.mulf %xn, %g : f32
      %r = arith.addf %s, %b : f32
      memref.store %r, %out[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 37 : index
  %n = arith.constant 29 : index
  %x = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %x_i0 = %c0 to %m step %c1 {
    scf.for %x_i1 = %c0 to %n step %c1 {
      %x_w0 = arith.constant 3 : index
      %x_p0 = arith.muli %x_i0, %x_w0 : index
      %x_w1 = arith.constant 5 : index
      %x_p1 = arith.muli %x_i1, %x_w1 : index
      %x_s1 = arith.addi %x_p0, %x_p1 : index
      %x_m = arith.constant 11 : index
      %x_r = arith.remui %x_s1, %x_m : index
      %x_ri = arith.index_cast %x_r : index to i32
      %x_rf = arith.sitofp %x_ri : i32 to f32
      %x_h = arith.constant 5.0 : f32
      %x_v = arith.subf %x_rf, %x_h : f32
      %x_sc = arith.constant 0.25 : f32
      %x_vs = arith.mulf %x_v, %x_sc : f32
      memref.store %x_vs, %x[%x_i0, %x_i1] : memref<?x?xf32>
    }
  }
  %gamma = memref.alloc(%n) : memref<?xf32>
  scf.for %gamma_i0 = %c0 to %n step %c1 {
    %gamma_w0 = arith.constant 3 : index
    %gamma_p0 = arith.muli %gamma_i0, %gamma_w0 : index
    %gamma_m = arith.constant 5 : index
    %gamma_r = arith.remui %gamma_p0, %gamma_m : index
    %gamma_ri = arith.index_cast %gamma_r : index to i32
    %gamma_rf = arith.sitofp %gamma_ri : i32 to f32
    %gamma_h = arith.constant 2.0 : f32
    %gamma_v = arith.subf %gamma_rf, %gamma_h : f32
    memref.store %gamma_v, %gamma[%gamma_i0] : memref<?xf32>
  }
  %beta = memref.alloc(%n) : memref<?xf32>
  scf.for %beta_i0 = %c0 to %n step %c1 {
    %beta_w0 = arith.constant 3 : index
    %beta_p0 = arith.muli %beta_i0, %beta_w0 : index
    %beta_m = arith.constant 4 : index
    %beta_r = arith.remui %beta_p0, %beta_m : index
    %beta_ri = arith.index_cast %beta_r : index to i32
    %beta_rf = arith.sitofp %beta_ri : i32 to f32
    %beta_h = arith.constant 2.0 : f32
    %beta_v = arith.subf %beta_rf, %beta_h : f32
    memref.store %beta_v, %beta[%beta_i0] : memref<?xf32>
  }
  %out = memref.alloc(%m, %n) : memref<?x?xf32>
  call @kernel(%x, %gamma, %beta, %out) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  // A weighted checksum, rounded so that emulation and reference agree.
  %out_zero = arith.constant 0.0 : f32
  %out_acc0 = scf.for %out_k0 = %c0 to %m step %c1 iter_args(%out_a0 = %out_zero) -> f32 {
    %out_acc1 = scf.for %out_k1 = %c0 to %n step %c1 iter_args(%out_a1 = %out_a0) -> f32 {
      %v = memref.load %out[%out_k0, %out_k1] : memref<?x?xf32>
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
