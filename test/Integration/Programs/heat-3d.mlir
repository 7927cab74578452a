// PolyBench heat-3d: a 7-point heat equation stencil in 3-D, A to B then B to A, for T steps.
// Source: PolyBench/C 4.2, stencils/heat-3d (kernel_heat_3d)
// Translated to MLIR by hand as a user writes it: a host scf.for over time around two 3-D scf.parallel sweeps.
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
// BUNDLE: --entry kernel --shape 0=160x160x160 --shape 1=160x160x160 --scalar 2=10

func.func @kernel(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %tsteps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  %eighth = arith.constant 0.125 : f32
  %n = memref.dim %A, %c0 : memref<?x?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?x?xf32>
  %p = memref.dim %A, %c2 : memref<?x?x?xf32>
  %n1 = arith.subi %n, %c1 : index
  %m1 = arith.subi %m, %c1 : index
  %p1 = arith.subi %p, %c1 : index
  scf.for %t = %c0 to %tsteps step %c1 {
    // B = A + 0.125 (d2A/di2 + d2A/dj2 + d2A/dk2) on the interior
    scf.parallel (%i, %j, %k) = (%c1, %c1, %c1) to (%n1, %m1, %p1) step (%c1, %c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %km = arith.subi %k, %c1 : index
      %kp = arith.addi %k, %c1 : index
      %x = memref.load %A[%i, %j, %k] : memref<?x?x?xf32>
      %x2 = arith.mulf %two, %x : f32
      %u0 = memref.load %A[%ip, %j, %k] : memref<?x?x?xf32>
      %l0 = memref.load %A[%im, %j, %k] : memref<?x?x?xf32>
      %d0a = arith.subf %u0, %x2 : f32
      %d0b = arith.addf %d0a, %l0 : f32
      %d0 = arith.mulf %eighth, %d0b : f32
      %u1 = memref.load %A[%i, %jp, %k] : memref<?x?x?xf32>
      %l1 = memref.load %A[%i, %jm, %k] : memref<?x?x?xf32>
      %d1a = arith.subf %u1, %x2 : f32
      %d1b = arith.addf %d1a, %l1 : f32
      %d1 = arith.mulf %eighth, %d1b : f32
      %u2 = memref.load %A[%i, %j, %kp] : memref<?x?x?xf32>
      %l2 = memref.load %A[%i, %j, %km] : memref<?x?x?xf32>
      %d2a = arith.subf %u2, %x2 : f32
      %d2b = arith.addf %d2a, %l2 : f32
      %d2 = arith.mulf %eighth, %d2b : f32
      %s1 = arith.addf %d0, %d1 : f32
      %s2 = arith.addf %s1, %d2 : f32
      %v = arith.addf %s2, %x : f32
      memref.store %v, %B[%i, %j, %k] : memref<?x?x?xf32>
    }
    // A = B + 0.125 (d2B/di2 + d2B/dj2 + d2B/dk2) on the interior
    scf.parallel (%i, %j, %k) = (%c1, %c1, %c1) to (%n1, %m1, %p1) step (%c1, %c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %km = arith.subi %k, %c1 : index
      %kp = arith.addi %k, %c1 : index
      %x = memref.load %B[%i, %j, %k] : memref<?x?x?xf32>
      %x2 = arith.mulf %two, %x : f32
      %u0 = memref.load %B[%ip, %j, %k] : memref<?x?x?xf32>
      %l0 = memref.load %B[%im, %j, %k] : memref<?x?x?xf32>
      %d0a = arith.subf %u0, %x2 : f32
      %d0b = arith.addf %d0a, %l0 : f32
      %d0 = arith.mulf %eighth, %d0b : f32
      %u1 = memref.load %B[%i, %jp, %k] : memref<?x?x?xf32>
      %l1 = memref.load %B[%i, %jm, %k] : memref<?x?x?xf32>
      %d1a = arith.subf %u1, %x2 : f32
      %d1b = arith.addf %d1a, %l1 : f32
      %d1 = arith.mulf %eighth, %d1b : f32
      %u2 = memref.load %B[%i, %j, %kp] : memref<?x?x?xf32>
      %l2 = memref.load %B[%i, %j, %km] : memref<?x?x?xf32>
      %d2a = arith.subf %u2, %x2 : f32
      %d2b = arith.addf %d2a, %l2 : f32
      %d2 = arith.mulf %eighth, %d2b : f32
      %s1 = arith.addf %d0, %d1 : f32
      %s2 = arith.addf %s1, %d2 : f32
      %v = arith.addf %s2, %x : f32
      memref.store %v, %A[%i, %j, %k] : memref<?x?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 7 : index
  %m = arith.constant 9 : index
  %p = arith.constant 11 : index
  %A = memref.alloc(%n, %m, %p) : memref<?x?x?xf32>
    scf.for %A_i0 = %c0 to %n step %c1 {
      scf.for %A_i1 = %c0 to %m step %c1 {
        scf.for %A_i2 = %c0 to %p step %c1 {
          %A_w0 = arith.constant 3 : index
          %A_p0 = arith.muli %A_i0, %A_w0 : index
          %A_w1 = arith.constant 5 : index
          %A_p1 = arith.muli %A_i1, %A_w1 : index
          %A_s1 = arith.addi %A_p0, %A_p1 : index
          %A_w2 = arith.constant 7 : index
          %A_p2 = arith.muli %A_i2, %A_w2 : index
          %A_s2 = arith.addi %A_s1, %A_p2 : index
          %A_m = arith.constant 5 : index
          %A_r = arith.remui %A_s2, %A_m : index
          %A_ri = arith.index_cast %A_r : index to i32
          %A_rf = arith.sitofp %A_ri : i32 to f32
          %A_h = arith.constant 2.0 : f32
          %A_v = arith.subf %A_rf, %A_h : f32
          memref.store %A_v, %A[%A_i0, %A_i1, %A_i2] : memref<?x?x?xf32>
        }
      }
    }
  %B = memref.alloc(%n, %m, %p) : memref<?x?x?xf32>
    scf.for %B_i0 = %c0 to %n step %c1 {
      scf.for %B_i1 = %c0 to %m step %c1 {
        scf.for %B_i2 = %c0 to %p step %c1 {
          %B_w0 = arith.constant 3 : index
          %B_p0 = arith.muli %B_i0, %B_w0 : index
          %B_w1 = arith.constant 5 : index
          %B_p1 = arith.muli %B_i1, %B_w1 : index
          %B_s1 = arith.addi %B_p0, %B_p1 : index
          %B_w2 = arith.constant 7 : index
          %B_p2 = arith.muli %B_i2, %B_w2 : index
          %B_s2 = arith.addi %B_s1, %B_p2 : index
          %B_m = arith.constant 3 : index
          %B_r = arith.remui %B_s2, %B_m : index
          %B_ri = arith.index_cast %B_r : index to i32
          %B_rf = arith.sitofp %B_ri : i32 to f32
          %B_h = arith.constant 1.0 : f32
          %B_v = arith.subf %B_rf, %B_h : f32
          memref.store %B_v, %B[%B_i0, %B_i1, %B_i2] : memref<?x?x?xf32>
        }
      }
    }
  %steps = arith.constant 4 : index
  call @kernel(%A, %B, %steps) : (memref<?x?x?xf32>, memref<?x?x?xf32>, index) -> ()
  %A_zero = arith.constant 0.0 : f32
  %A_a0 = scf.for %A_k0 = %c0 to %n step %c1 iter_args(%A_c0 = %A_zero) -> f32 {
    %A_a1 = scf.for %A_k1 = %c0 to %m step %c1 iter_args(%A_c1 = %A_c0) -> f32 {
      %A_a2 = scf.for %A_k2 = %c0 to %p step %c1 iter_args(%A_c2 = %A_c1) -> f32 {
        %A_ld = memref.load %A[%A_k0, %A_k1, %A_k2] : memref<?x?x?xf32>
        %q0w = arith.constant 1 : index
        %q0 = arith.muli %A_k0, %q0w : index
        %q1w = arith.constant 3 : index
        %q1 = arith.muli %A_k1, %q1w : index
        %qs1 = arith.addi %q0, %q1 : index
        %q2w = arith.constant 5 : index
        %q2 = arith.muli %A_k2, %q2w : index
        %qs2 = arith.addi %qs1, %q2 : index
        %c7 = arith.constant 7 : index
        %w = arith.remui %qs2, %c7 : index
        %w1 = arith.addi %w, %c1 : index
        %wi = arith.index_cast %w1 : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        %prod = arith.mulf %A_ld, %wf : f32
        %sum = arith.addf %A_c2, %prod : f32
        scf.yield %sum : f32
      }
      scf.yield %A_a2 : f32
    }
    scf.yield %A_a1 : f32
  }
  vector.print str "A "
  vector.print %A_a0 : f32
  %B_zero = arith.constant 0.0 : f32
  %B_a0 = scf.for %B_k0 = %c0 to %n step %c1 iter_args(%B_c0 = %B_zero) -> f32 {
    %B_a1 = scf.for %B_k1 = %c0 to %m step %c1 iter_args(%B_c1 = %B_c0) -> f32 {
      %B_a2 = scf.for %B_k2 = %c0 to %p step %c1 iter_args(%B_c2 = %B_c1) -> f32 {
        %B_ld = memref.load %B[%B_k0, %B_k1, %B_k2] : memref<?x?x?xf32>
        %q0w = arith.constant 1 : index
        %q0 = arith.muli %B_k0, %q0w : index
        %q1w = arith.constant 3 : index
        %q1 = arith.muli %B_k1, %q1w : index
        %qs1 = arith.addi %q0, %q1 : index
        %q2w = arith.constant 5 : index
        %q2 = arith.muli %B_k2, %q2w : index
        %qs2 = arith.addi %qs1, %q2 : index
        %c7 = arith.constant 7 : index
        %w = arith.remui %qs2, %c7 : index
        %w1 = arith.addi %w, %c1 : index
        %wi = arith.index_cast %w1 : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        %prod = arith.mulf %B_ld, %wf : f32
        %sum = arith.addf %B_c2, %prod : f32
        scf.yield %sum : f32
      }
      scf.yield %B_a2 : f32
    }
    scf.yield %B_a1 : f32
  }
  vector.print str "B "
  vector.print %B_a0 : f32
  return
}
