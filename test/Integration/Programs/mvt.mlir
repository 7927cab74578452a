// PolyBench mvt: x1 += A y1 and x2 += A^T y2.
// Source: PolyBench/C 4.2, linear-algebra/kernels/mvt (kernel_mvt)
// Translated to MLIR by hand as a user writes it: the two loop nests as written, accumulating into x1 and x2 in memory, the outer loops made scf.parallel.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner
// BUNDLE: --entry kernel --shape 0=4096x4096 --shape 1=4096 --shape 2=4096 --shape 3=4096 --shape 4=4096

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
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: x1 
// CHECK: x2 

func.func @kernel(%A: memref<?x?xf32>, %y1: memref<?xf32>, %y2: memref<?xf32>, %x1: memref<?xf32>, %x2: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      %o = memref.load %x1[%i] : memref<?xf32>
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %y1[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %o, %p : f32
      memref.store %t, %x1[%i] : memref<?xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      %o = memref.load %x2[%i] : memref<?xf32>
      %a = memref.load %A[%j, %i] : memref<?x?xf32>
      %b = memref.load %y2[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %o, %p : f32
      memref.store %t, %x2[%i] : memref<?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 41 : index
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
  %y1 = memref.alloc(%n) : memref<?xf32>
    scf.for %y1_i0 = %c0 to %n step %c1 {
      %y1_w0 = arith.constant 7 : index
      %y1_p0 = arith.muli %y1_i0, %y1_w0 : index
      %y1_m = arith.constant 4 : index
      %y1_r = arith.remui %y1_p0, %y1_m : index
      %y1_ri = arith.index_cast %y1_r : index to i32
      %y1_rf = arith.sitofp %y1_ri : i32 to f32
      %y1_h = arith.constant 2.0 : f32
      %y1_v = arith.subf %y1_rf, %y1_h : f32
      memref.store %y1_v, %y1[%y1_i0] : memref<?xf32>
    }
  %y2 = memref.alloc(%n) : memref<?xf32>
    scf.for %y2_i0 = %c0 to %n step %c1 {
      %y2_w0 = arith.constant 7 : index
      %y2_p0 = arith.muli %y2_i0, %y2_w0 : index
      %y2_m = arith.constant 3 : index
      %y2_r = arith.remui %y2_p0, %y2_m : index
      %y2_ri = arith.index_cast %y2_r : index to i32
      %y2_rf = arith.sitofp %y2_ri : i32 to f32
      %y2_h = arith.constant 1.0 : f32
      %y2_v = arith.subf %y2_rf, %y2_h : f32
      memref.store %y2_v, %y2[%y2_i0] : memref<?xf32>
    }
  %x1 = memref.alloc(%n) : memref<?xf32>
    scf.for %x1_i0 = %c0 to %n step %c1 {
      %x1_w0 = arith.constant 7 : index
      %x1_p0 = arith.muli %x1_i0, %x1_w0 : index
      %x1_m = arith.constant 3 : index
      %x1_r = arith.remui %x1_p0, %x1_m : index
      %x1_ri = arith.index_cast %x1_r : index to i32
      %x1_rf = arith.sitofp %x1_ri : i32 to f32
      %x1_h = arith.constant 1.0 : f32
      %x1_v = arith.subf %x1_rf, %x1_h : f32
      memref.store %x1_v, %x1[%x1_i0] : memref<?xf32>
    }
  %x2 = memref.alloc(%n) : memref<?xf32>
    scf.for %x2_i0 = %c0 to %n step %c1 {
      %x2_w0 = arith.constant 7 : index
      %x2_p0 = arith.muli %x2_i0, %x2_w0 : index
      %x2_m = arith.constant 5 : index
      %x2_r = arith.remui %x2_p0, %x2_m : index
      %x2_ri = arith.index_cast %x2_r : index to i32
      %x2_rf = arith.sitofp %x2_ri : i32 to f32
      %x2_h = arith.constant 2.0 : f32
      %x2_v = arith.subf %x2_rf, %x2_h : f32
      memref.store %x2_v, %x2[%x2_i0] : memref<?xf32>
    }
  call @kernel(%A, %y1, %y2, %x1, %x2) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %x1_zero = arith.constant 0.0 : f32
  %x1_sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x1_zero) -> f32 {
    %v = memref.load %x1[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "x1 "
  vector.print %x1_sum : f32
  %x2_zero = arith.constant 0.0 : f32
  %x2_sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x2_zero) -> f32 {
    %v = memref.load %x2[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "x2 "
  vector.print %x2_sum : f32
  return
}
