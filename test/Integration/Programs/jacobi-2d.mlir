// PolyBench jacobi-2d: a 5-point stencil, A to B then B to A, for T steps.
// Source: PolyBench/C 4.2, stencils/jacobi-2d (kernel_jacobi_2d)
// Translated to MLIR by hand as a user writes it: a host scf.for over time around two 2-D scf.parallel sweeps.
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
// CHECK: A 
// CHECK: B 
// BUNDLE: --entry kernel --shape 0=2000x2000 --shape 1=2000x2000 --scalar 2=10

func.func @kernel(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %tsteps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fifth = arith.constant 0.2 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  %n1 = arith.subi %n, %c1 : index
  %m1 = arith.subi %m, %c1 : index
  scf.for %t = %c0 to %tsteps step %c1 {
    // B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
    scf.parallel (%i, %j) = (%c1, %c1) to (%n1, %m1) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %a0 = memref.load %A[%i, %j] : memref<?x?xf32>
      %a1 = memref.load %A[%i, %jm] : memref<?x?xf32>
      %a2 = memref.load %A[%i, %jp] : memref<?x?xf32>
      %a3 = memref.load %A[%ip, %j] : memref<?x?xf32>
      %a4 = memref.load %A[%im, %j] : memref<?x?xf32>
      %s1 = arith.addf %a0, %a1 : f32
      %s2 = arith.addf %s1, %a2 : f32
      %s3 = arith.addf %s2, %a3 : f32
      %s4 = arith.addf %s3, %a4 : f32
      %v = arith.mulf %fifth, %s4 : f32
      memref.store %v, %B[%i, %j] : memref<?x?xf32>
    }
    // A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][j+1] + B[i+1][j] + B[i-1][j])
    scf.parallel (%i, %j) = (%c1, %c1) to (%n1, %m1) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %b0 = memref.load %B[%i, %j] : memref<?x?xf32>
      %b1 = memref.load %B[%i, %jm] : memref<?x?xf32>
      %b2 = memref.load %B[%i, %jp] : memref<?x?xf32>
      %b3 = memref.load %B[%ip, %j] : memref<?x?xf32>
      %b4 = memref.load %B[%im, %j] : memref<?x?xf32>
      %s1 = arith.addf %b0, %b1 : f32
      %s2 = arith.addf %s1, %b2 : f32
      %s3 = arith.addf %s2, %b3 : f32
      %s4 = arith.addf %s3, %b4 : f32
      %v = arith.mulf %fifth, %s4 : f32
      memref.store %v, %A[%i, %j] : memref<?x?xf32>
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
  %A = memref.alloc(%n, %m) : memref<?x?xf32>
    scf.for %A_i0 = %c0 to %n step %c1 {
      scf.for %A_i1 = %c0 to %m step %c1 {
        %A_w0 = arith.constant 3 : index
        %A_p0 = arith.muli %A_i0, %A_w0 : index
        %A_w1 = arith.constant 5 : index
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
  %B = memref.alloc(%n, %m) : memref<?x?xf32>
    scf.for %B_i0 = %c0 to %n step %c1 {
      scf.for %B_i1 = %c0 to %m step %c1 {
        %B_w0 = arith.constant 3 : index
        %B_p0 = arith.muli %B_i0, %B_w0 : index
        %B_w1 = arith.constant 5 : index
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
  %steps = arith.constant 5 : index
  call @kernel(%A, %B, %steps) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  %A_zero = arith.constant 0.0 : f32
  %A_a0 = scf.for %A_k0 = %c0 to %n step %c1 iter_args(%A_c0 = %A_zero) -> f32 {
    %A_a1 = scf.for %A_k1 = %c0 to %m step %c1 iter_args(%A_c1 = %A_c0) -> f32 {
      %A_ld = memref.load %A[%A_k0, %A_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %A_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %A_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %A_ld, %wf : f32
      %sum = arith.addf %A_c1, %prod : f32
      memref.store %sum, %order[] : memref<f32>
      scf.yield %sum : f32
    }
    memref.store %A_a1, %order[] : memref<f32>
    scf.yield %A_a1 : f32
  }
  vector.print str "A "
  vector.print %A_a0 : f32
  %B_zero = arith.constant 0.0 : f32
  %B_a0 = scf.for %B_k0 = %c0 to %n step %c1 iter_args(%B_c0 = %B_zero) -> f32 {
    %B_a1 = scf.for %B_k1 = %c0 to %m step %c1 iter_args(%B_c1 = %B_c0) -> f32 {
      %B_ld = memref.load %B[%B_k0, %B_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %B_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %B_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %B_ld, %wf : f32
      %sum = arith.addf %B_c1, %prod : f32
      memref.store %sum, %order[] : memref<f32>
      scf.yield %sum : f32
    }
    memref.store %B_a1, %order[] : memref<f32>
    scf.yield %B_a1 : f32
  }
  vector.print str "B "
  vector.print %B_a0 : f32
  return
}
