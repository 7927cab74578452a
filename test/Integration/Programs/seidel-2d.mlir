// PolyBench seidel-2d: an in-place 9-point Gauss-Seidel sweep, T steps; no loop is parallel.
// Source: PolyBench/C 4.2, stencils/seidel-2d (kernel_seidel_2d)
// Translated to MLIR by hand as a user writes it: three nested scf.for as PolyBench writes them, updating A in place; the sequential fallback runs the nest on one GPU thread.
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
// BOUND-DAG: warning: has no parallel loop, so all of its code that touches memory runs on one GPU thread
// BOUND-DAG: remark: runs on one GPU thread
// CHECK: A 
// BUNDLE: --entry kernel --shape 0=500x500 --scalar 1=10

func.func @kernel(%A: memref<?x?xf32>, %tsteps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nine = arith.constant 9.0 : f32
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  %n1 = arith.subi %n, %c1 : index
  %m1 = arith.subi %m, %c1 : index
  // In place: A[i][j] reads the new A[i-1][*] and A[i][j-1] of this step,
  // so neither spatial loop is parallel.
  scf.for %t = %c0 to %tsteps step %c1 {
    scf.for %i = %c1 to %n1 step %c1 {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      scf.for %j = %c1 to %m1 step %c1 {
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %amm = memref.load %A[%im, %jm] : memref<?x?xf32>
        %am0 = memref.load %A[%im, %j] : memref<?x?xf32>
        %amp = memref.load %A[%im, %jp] : memref<?x?xf32>
        %a0m = memref.load %A[%i, %jm] : memref<?x?xf32>
        %a00 = memref.load %A[%i, %j] : memref<?x?xf32>
        %a0p = memref.load %A[%i, %jp] : memref<?x?xf32>
        %apm = memref.load %A[%ip, %jm] : memref<?x?xf32>
        %ap0 = memref.load %A[%ip, %j] : memref<?x?xf32>
        %app = memref.load %A[%ip, %jp] : memref<?x?xf32>
        %s0 = arith.addf %amm, %am0 : f32
        %s1 = arith.addf %s0, %amp : f32
        %s2 = arith.addf %s1, %a0m : f32
        %s3 = arith.addf %s2, %a00 : f32
        %s4 = arith.addf %s3, %a0p : f32
        %s5 = arith.addf %s4, %apm : f32
        %s6 = arith.addf %s5, %ap0 : f32
        %s7 = arith.addf %s6, %app : f32
        %v = arith.divf %s7, %nine : f32
        memref.store %v, %A[%i, %j] : memref<?x?xf32>
      }
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
  %steps = arith.constant 3 : index
  call @kernel(%A, %steps) : (memref<?x?xf32>, index) -> ()
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
  %A_scale = arith.constant 1000.0 : f32
  %A_scaled = arith.mulf %A_a0, %A_scale : f32
  %A_rounded = math.roundeven %A_scaled : f32
  vector.print str "A "
  vector.print %A_rounded : f32
  return
}
