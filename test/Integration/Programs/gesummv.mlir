// PolyBench gesummv: y = alpha A x + beta B x, two sums a row in one loop.
// Source: PolyBench/C 4.2, linear-algebra/blas/gesummv (kernel_gesummv)
// Translated to MLIR by hand as a user writes it: one scf.parallel over rows, both sums carried in one scf.for's iter_args.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner
// BUNDLE: --entry kernel --shape 0=4096x4096 --shape 1=4096x4096 --shape 2=4096 --shape 3=4096

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
// BOUND-DAG: remark: row reduction mapped
// CHECK: y 

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t:2 = scf.for %j = %c0 to %n step %c1 iter_args(%ta = %zero, %tb = %zero) -> (f32, f32) {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %B[%i, %j] : memref<?x?xf32>
      %v = memref.load %x[%j] : memref<?xf32>
      %pa = arith.mulf %a, %v : f32
      %pb = arith.mulf %b, %v : f32
      %na = arith.addf %ta, %pa : f32
      %nb = arith.addf %tb, %pb : f32
      scf.yield %na, %nb : f32, f32
    }
    %sa = arith.mulf %alpha, %t#0 : f32
    %sb = arith.mulf %beta, %t#1 : f32
    %s = arith.addf %sa, %sb : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 43 : index
  %A = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %A_i0 = %c0 to %n step %c1 {
      scf.for %A_i1 = %c0 to %n step %c1 {
        %A_w0 = arith.constant 7 : index
        %A_p0 = arith.muli %A_i0, %A_w0 : index
        %A_w1 = arith.constant 11 : index
        %A_p1 = arith.muli %A_i1, %A_w1 : index
        %A_s1 = arith.addi %A_p0, %A_p1 : index
        %A_m = arith.constant 5 : index
        %A_r = arith.remui %A_s1, %A_m : index
        %A_ri = arith.index_cast %A_r : index to i32
        %A_rf = arith.sitofp %A_ri : i32 to f32
        %A_h = arith.constant 2.0 : f32
        %A_v = arith.subf %A_rf, %A_h : f32
        memref.store %A_v, %A[%A_i0, %A_i1] : memref<?x?xf32>
      }
    }
  %B = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %B_i0 = %c0 to %n step %c1 {
      scf.for %B_i1 = %c0 to %n step %c1 {
        %B_w0 = arith.constant 7 : index
        %B_p0 = arith.muli %B_i0, %B_w0 : index
        %B_w1 = arith.constant 11 : index
        %B_p1 = arith.muli %B_i1, %B_w1 : index
        %B_s1 = arith.addi %B_p0, %B_p1 : index
        %B_m = arith.constant 3 : index
        %B_r = arith.remui %B_s1, %B_m : index
        %B_ri = arith.index_cast %B_r : index to i32
        %B_rf = arith.sitofp %B_ri : i32 to f32
        %B_h = arith.constant 1.0 : f32
        %B_v = arith.subf %B_rf, %B_h : f32
        memref.store %B_v, %B[%B_i0, %B_i1] : memref<?x?xf32>
      }
    }
  %x = memref.alloc(%n) : memref<?xf32>
    scf.for %x_i0 = %c0 to %n step %c1 {
      %x_w0 = arith.constant 7 : index
      %x_p0 = arith.muli %x_i0, %x_w0 : index
      %x_m = arith.constant 4 : index
      %x_r = arith.remui %x_p0, %x_m : index
      %x_ri = arith.index_cast %x_r : index to i32
      %x_rf = arith.sitofp %x_ri : i32 to f32
      %x_h = arith.constant 2.0 : f32
      %x_v = arith.subf %x_rf, %x_h : f32
      memref.store %x_v, %x[%x_i0] : memref<?xf32>
    }
  %y = memref.alloc(%n) : memref<?xf32>
    scf.for %y_i0 = %c0 to %n step %c1 {
      %y_w0 = arith.constant 7 : index
      %y_p0 = arith.muli %y_i0, %y_w0 : index
      %y_m = arith.constant 3 : index
      %y_r = arith.remui %y_p0, %y_m : index
      %y_ri = arith.index_cast %y_r : index to i32
      %y_rf = arith.sitofp %y_ri : i32 to f32
      %y_h = arith.constant 1.0 : f32
      %y_v = arith.subf %y_rf, %y_h : f32
      memref.store %y_v, %y[%y_i0] : memref<?xf32>
    }
  call @kernel(%A, %B, %x, %y) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %y_zero = arith.constant 0.0 : f32
  %y_sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %y_zero) -> f32 {
    %v = memref.load %y[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "y "
  vector.print %y_sum : f32
  return
}
