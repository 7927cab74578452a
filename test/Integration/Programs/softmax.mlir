// Softmax over the rows of a matrix, as a user writes it in scf: one
// parallel loop over rows, three passes over the row in its body.
// Source: the softmax definition, as torch.softmax(x, dim=-1) computes it (row max,
// sum of exp(x - max), exp(x - max) / sum)
// Translated to MLIR by hand as a user writes it: one scf.parallel over rows whose body holds
// the row max and the sum of exp as scf.for iter_args reductions, then an
// scf.for that stores out[i][j].
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
// BUNDLE: --entry kernel --shape 0=2048x1024 --shape 1=2048x1024

func.func @kernel(%x: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    // The row's max, subtracted so that exp cannot overflow.
    %max = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %lowest) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %r = arith.maximumf %acc, %v : f32
      scf.yield %r : f32
    }
    // The sum of exp(x - max) over the row.
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %r = arith.addf %acc, %e : f32
      scf.yield %r : f32
    }
    // Each element's exp scaled by the row's sum.
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      %r = arith.divf %e, %sum : f32
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
  %out = memref.alloc(%m, %n) : memref<?x?xf32>
  call @kernel(%x, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
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
