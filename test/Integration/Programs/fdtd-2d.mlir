// PolyBench fdtd-2d: 2-D finite-difference time-domain, ey, ex and hz updated each step.
// Source: PolyBench/C 4.2, stencils/fdtd-2d (kernel_fdtd_2d)
// Translated to MLIR by hand as a user writes it: a host scf.for over the steps of _fict_ around a 1-D scf.parallel for the boundary row and three 2-D scf.parallel updates.
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
// CHECK: ex 
// CHECK: ey 
// CHECK: hz 
// BUNDLE: --entry kernel --shape 0=2000x2000 --shape 1=2000x2000 --shape 2=2000x2000 --shape 3=10

func.func @kernel(%ex: memref<?x?xf32>, %ey: memref<?x?xf32>, %hz: memref<?x?xf32>, %fict: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %c07 = arith.constant 0.7 : f32
  %nx = memref.dim %ex, %c0 : memref<?x?xf32>
  %ny = memref.dim %ex, %c1 : memref<?x?xf32>
  %tmax = memref.dim %fict, %c0 : memref<?xf32>
  %nx1 = arith.subi %nx, %c1 : index
  %ny1 = arith.subi %ny, %c1 : index
  scf.for %t = %c0 to %tmax step %c1 {
    // The boundary row of ey takes the source term of this step.
    scf.parallel (%j) = (%c0) to (%ny) step (%c1) {
      %f = memref.load %fict[%t] : memref<?xf32>
      memref.store %f, %ey[%c0, %j] : memref<?x?xf32>
    }
    // ey[i][j] -= 0.5 * (hz[i][j] - hz[i-1][j])
    scf.parallel (%i, %j) = (%c1, %c0) to (%nx, %ny) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %e = memref.load %ey[%i, %j] : memref<?x?xf32>
      %h0 = memref.load %hz[%i, %j] : memref<?x?xf32>
      %h1 = memref.load %hz[%im, %j] : memref<?x?xf32>
      %d = arith.subf %h0, %h1 : f32
      %s = arith.mulf %half, %d : f32
      %v = arith.subf %e, %s : f32
      memref.store %v, %ey[%i, %j] : memref<?x?xf32>
    }
    // ex[i][j] -= 0.5 * (hz[i][j] - hz[i][j-1])
    scf.parallel (%i, %j) = (%c0, %c1) to (%nx, %ny) step (%c1, %c1) {
      %jm = arith.subi %j, %c1 : index
      %e = memref.load %ex[%i, %j] : memref<?x?xf32>
      %h0 = memref.load %hz[%i, %j] : memref<?x?xf32>
      %h1 = memref.load %hz[%i, %jm] : memref<?x?xf32>
      %d = arith.subf %h0, %h1 : f32
      %s = arith.mulf %half, %d : f32
      %v = arith.subf %e, %s : f32
      memref.store %v, %ex[%i, %j] : memref<?x?xf32>
    }
    // hz[i][j] -= 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
    scf.parallel (%i, %j) = (%c0, %c0) to (%nx1, %ny1) step (%c1, %c1) {
      %ip = arith.addi %i, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %h = memref.load %hz[%i, %j] : memref<?x?xf32>
      %x1 = memref.load %ex[%i, %jp] : memref<?x?xf32>
      %x0 = memref.load %ex[%i, %j] : memref<?x?xf32>
      %y1 = memref.load %ey[%ip, %j] : memref<?x?xf32>
      %y0 = memref.load %ey[%i, %j] : memref<?x?xf32>
      %dx = arith.subf %x1, %x0 : f32
      %a = arith.addf %dx, %y1 : f32
      %b = arith.subf %a, %y0 : f32
      %s = arith.mulf %c07, %b : f32
      %v = arith.subf %h, %s : f32
      memref.store %v, %hz[%i, %j] : memref<?x?xf32>
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
  %nx = arith.constant 37 : index
  %ny = arith.constant 29 : index
  %tmax = arith.constant 6 : index
  %ex = memref.alloc(%nx, %ny) : memref<?x?xf32>
    scf.for %ex_i0 = %c0 to %nx step %c1 {
      scf.for %ex_i1 = %c0 to %ny step %c1 {
        %ex_w0 = arith.constant 3 : index
        %ex_p0 = arith.muli %ex_i0, %ex_w0 : index
        %ex_w1 = arith.constant 5 : index
        %ex_p1 = arith.muli %ex_i1, %ex_w1 : index
        %ex_s1 = arith.addi %ex_p0, %ex_p1 : index
        %ex_m = arith.constant 5 : index
        %ex_r = arith.remui %ex_s1, %ex_m : index
        %ex_ri = arith.index_cast %ex_r : index to i32
        %ex_rf = arith.sitofp %ex_ri : i32 to f32
        %ex_h = arith.constant 2.0 : f32
        %ex_v = arith.subf %ex_rf, %ex_h : f32
        memref.store %ex_v, %ex[%ex_i0, %ex_i1] : memref<?x?xf32>
      }
    }
  %ey = memref.alloc(%nx, %ny) : memref<?x?xf32>
    scf.for %ey_i0 = %c0 to %nx step %c1 {
      scf.for %ey_i1 = %c0 to %ny step %c1 {
        %ey_w0 = arith.constant 3 : index
        %ey_p0 = arith.muli %ey_i0, %ey_w0 : index
        %ey_w1 = arith.constant 5 : index
        %ey_p1 = arith.muli %ey_i1, %ey_w1 : index
        %ey_s1 = arith.addi %ey_p0, %ey_p1 : index
        %ey_m = arith.constant 3 : index
        %ey_r = arith.remui %ey_s1, %ey_m : index
        %ey_ri = arith.index_cast %ey_r : index to i32
        %ey_rf = arith.sitofp %ey_ri : i32 to f32
        %ey_h = arith.constant 1.0 : f32
        %ey_v = arith.subf %ey_rf, %ey_h : f32
        memref.store %ey_v, %ey[%ey_i0, %ey_i1] : memref<?x?xf32>
      }
    }
  %hz = memref.alloc(%nx, %ny) : memref<?x?xf32>
    scf.for %hz_i0 = %c0 to %nx step %c1 {
      scf.for %hz_i1 = %c0 to %ny step %c1 {
        %hz_w0 = arith.constant 3 : index
        %hz_p0 = arith.muli %hz_i0, %hz_w0 : index
        %hz_w1 = arith.constant 5 : index
        %hz_p1 = arith.muli %hz_i1, %hz_w1 : index
        %hz_s1 = arith.addi %hz_p0, %hz_p1 : index
        %hz_m = arith.constant 5 : index
        %hz_r = arith.remui %hz_s1, %hz_m : index
        %hz_ri = arith.index_cast %hz_r : index to i32
        %hz_rf = arith.sitofp %hz_ri : i32 to f32
        %hz_h = arith.constant 2.0 : f32
        %hz_v = arith.subf %hz_rf, %hz_h : f32
        memref.store %hz_v, %hz[%hz_i0, %hz_i1] : memref<?x?xf32>
      }
    }
  %fict = memref.alloc(%tmax) : memref<?xf32>
    scf.for %fict_i0 = %c0 to %tmax step %c1 {
      %fict_w0 = arith.constant 3 : index
      %fict_p0 = arith.muli %fict_i0, %fict_w0 : index
      %fict_m = arith.constant 4 : index
      %fict_r = arith.remui %fict_p0, %fict_m : index
      %fict_ri = arith.index_cast %fict_r : index to i32
      %fict_rf = arith.sitofp %fict_ri : i32 to f32
      %fict_h = arith.constant 2.0 : f32
      %fict_v = arith.subf %fict_rf, %fict_h : f32
      memref.store %fict_v, %fict[%fict_i0] : memref<?xf32>
    }
  call @kernel(%ex, %ey, %hz, %fict) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  %ex_zero = arith.constant 0.0 : f32
  %ex_a0 = scf.for %ex_k0 = %c0 to %nx step %c1 iter_args(%ex_c0 = %ex_zero) -> f32 {
    %ex_a1 = scf.for %ex_k1 = %c0 to %ny step %c1 iter_args(%ex_c1 = %ex_c0) -> f32 {
      %ex_ld = memref.load %ex[%ex_k0, %ex_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %ex_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %ex_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %ex_ld, %wf : f32
      %sum = arith.addf %ex_c1, %prod : f32
      memref.store %sum, %order[] : memref<f32>
      scf.yield %sum : f32
    }
    memref.store %ex_a1, %order[] : memref<f32>
    scf.yield %ex_a1 : f32
  }
  vector.print str "ex "
  vector.print %ex_a0 : f32
  %ey_zero = arith.constant 0.0 : f32
  %ey_a0 = scf.for %ey_k0 = %c0 to %nx step %c1 iter_args(%ey_c0 = %ey_zero) -> f32 {
    %ey_a1 = scf.for %ey_k1 = %c0 to %ny step %c1 iter_args(%ey_c1 = %ey_c0) -> f32 {
      %ey_ld = memref.load %ey[%ey_k0, %ey_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %ey_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %ey_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %ey_ld, %wf : f32
      %sum = arith.addf %ey_c1, %prod : f32
      memref.store %sum, %order[] : memref<f32>
      scf.yield %sum : f32
    }
    memref.store %ey_a1, %order[] : memref<f32>
    scf.yield %ey_a1 : f32
  }
  vector.print str "ey "
  vector.print %ey_a0 : f32
  %hz_zero = arith.constant 0.0 : f32
  %hz_a0 = scf.for %hz_k0 = %c0 to %nx step %c1 iter_args(%hz_c0 = %hz_zero) -> f32 {
    %hz_a1 = scf.for %hz_k1 = %c0 to %ny step %c1 iter_args(%hz_c1 = %hz_c0) -> f32 {
      %hz_ld = memref.load %hz[%hz_k0, %hz_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %hz_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %hz_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %hz_ld, %wf : f32
      %sum = arith.addf %hz_c1, %prod : f32
      memref.store %sum, %order[] : memref<f32>
      scf.yield %sum : f32
    }
    memref.store %hz_a1, %order[] : memref<f32>
    scf.yield %hz_a1 : f32
  }
  vector.print str "hz "
  vector.print %hz_a0 : f32
  return
}
