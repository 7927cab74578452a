// PolyBench jacobi-1d: a 3-point stencil, back and forth, for T steps.
// Source: PolyBench/C 4.2, stencils/jacobi-1d (kernel_jacobi_1d)
// Translated to MLIR by hand as a user writes it: a host scf.for over time around two scf.parallel sweeps.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner
// BUNDLE: --entry kernel --shape 0=4000000 --shape 1=4000000

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
// CHECK: A 
// CHECK: B 

func.func @kernel(%A: memref<?xf32>, %B: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %steps = arith.constant 7 : index
  %third = arith.constant 0.33333 : f32
  %n = memref.dim %A, %c0 : memref<?xf32>
  %last = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %steps step %c1 {
    scf.parallel (%i) = (%c1) to (%last) step (%c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %a = memref.load %A[%im] : memref<?xf32>
      %b = memref.load %A[%i] : memref<?xf32>
      %c = memref.load %A[%ip] : memref<?xf32>
      %s = arith.addf %a, %b : f32
      %u = arith.addf %s, %c : f32
      %v = arith.mulf %third, %u : f32
      memref.store %v, %B[%i] : memref<?xf32>
    }
    scf.parallel (%i) = (%c1) to (%last) step (%c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %a = memref.load %B[%im] : memref<?xf32>
      %b = memref.load %B[%i] : memref<?xf32>
      %c = memref.load %B[%ip] : memref<?xf32>
      %s = arith.addf %a, %b : f32
      %u = arith.addf %s, %c : f32
      %v = arith.mulf %third, %u : f32
      memref.store %v, %A[%i] : memref<?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 300 : index
  %A = memref.alloc(%n) : memref<?xf32>
    scf.for %A_i0 = %c0 to %n step %c1 {
      %A_w0 = arith.constant 7 : index
      %A_p0 = arith.muli %A_i0, %A_w0 : index
      %A_m = arith.constant 7 : index
      %A_r = arith.remui %A_p0, %A_m : index
      %A_ri = arith.index_cast %A_r : index to i32
      %A_rf = arith.sitofp %A_ri : i32 to f32
      %A_h = arith.constant 3.0 : f32
      %A_v = arith.subf %A_rf, %A_h : f32
      memref.store %A_v, %A[%A_i0] : memref<?xf32>
    }
  %B = memref.alloc(%n) : memref<?xf32>
    scf.for %B_i0 = %c0 to %n step %c1 {
      %B_w0 = arith.constant 7 : index
      %B_p0 = arith.muli %B_i0, %B_w0 : index
      %B_m = arith.constant 5 : index
      %B_r = arith.remui %B_p0, %B_m : index
      %B_ri = arith.index_cast %B_r : index to i32
      %B_rf = arith.sitofp %B_ri : i32 to f32
      %B_h = arith.constant 2.0 : f32
      %B_v = arith.subf %B_rf, %B_h : f32
      memref.store %B_v, %B[%B_i0] : memref<?xf32>
    }
  call @kernel(%A, %B) : (memref<?xf32>, memref<?xf32>) -> ()
  %A_zero = arith.constant 0.0 : f32
  %A_sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %A_zero) -> f32 {
    %v = memref.load %A[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "A "
  vector.print %A_sum : f32
  %B_zero = arith.constant 0.0 : f32
  %B_sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %B_zero) -> f32 {
    %v = memref.load %B[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "B "
  vector.print %B_sum : f32
  return
}
