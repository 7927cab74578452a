// Rodinia hotspot: one time step of the chip thermal simulation, a 5-point stencil with power and ambient terms.
// Source: Rodinia 3.1, hotspot (calculate_temp in hotspot.cu), one step of the update it computes, without its pyramid tiling in shared memory
// Translated to MLIR by hand as a user writes it: a 2-D scf.parallel over the grid, the north, south, east and west neighbours clamped to the edges with arith.maxsi/minsi, the constants of the step passed as scalars as calculate_temp takes them.
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
// CHECK: dst 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048x2048 --shape 2=2048x2048 --scalar 3=2.0 --scalar 4=4.0 --scalar 5=4.0 --scalar 6=8.0 --scalar 7=0.5

func.func @kernel(%power: memref<?x?xf32>, %src: memref<?x?xf32>, %dst: memref<?x?xf32>, %cap: f32, %rx: f32, %ry: f32, %rz: f32, %step: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %amb = arith.constant 80.0 : f32
  %rows = memref.dim %src, %c0 : memref<?x?xf32>
  %cols = memref.dim %src, %c1 : memref<?x?xf32>
  %lastr = arith.subi %rows, %c1 : index
  %lastc = arith.subi %cols, %c1 : index
  %sdc = arith.divf %step, %cap : f32
  %rx1 = arith.divf %one, %rx : f32
  %ry1 = arith.divf %one, %ry : f32
  %rz1 = arith.divf %one, %rz : f32
  scf.parallel (%r, %c) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    // The neighbours, clamped to the grid at its edges.
    %rm = arith.subi %r, %c1 : index
    %rp = arith.addi %r, %c1 : index
    %cm = arith.subi %c, %c1 : index
    %cp = arith.addi %c, %c1 : index
    %n = arith.maxsi %rm, %c0 : index
    %s = arith.minsi %rp, %lastr : index
    %w = arith.maxsi %cm, %c0 : index
    %e = arith.minsi %cp, %lastc : index
    %t = memref.load %src[%r, %c] : memref<?x?xf32>
    %tn = memref.load %src[%n, %c] : memref<?x?xf32>
    %ts = memref.load %src[%s, %c] : memref<?x?xf32>
    %tw = memref.load %src[%r, %w] : memref<?x?xf32>
    %te = memref.load %src[%r, %e] : memref<?x?xf32>
    %p = memref.load %power[%r, %c] : memref<?x?xf32>
    %t2 = arith.mulf %two, %t : f32
    %ns = arith.addf %ts, %tn : f32
    %ns2 = arith.subf %ns, %t2 : f32
    %vy = arith.mulf %ns2, %ry1 : f32
    %ew = arith.addf %te, %tw : f32
    %ew2 = arith.subf %ew, %t2 : f32
    %vx = arith.mulf %ew2, %rx1 : f32
    %da = arith.subf %amb, %t : f32
    %vz = arith.mulf %da, %rz1 : f32
    %a1 = arith.addf %p, %vy : f32
    %a2 = arith.addf %a1, %vx : f32
    %a3 = arith.addf %a2, %vz : f32
    %d = arith.mulf %sdc, %a3 : f32
    %v = arith.addf %t, %d : f32
    memref.store %v, %dst[%r, %c] : memref<?x?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 37 : index
  %cols = arith.constant 29 : index
  %power = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %power_i0 = %c0 to %rows step %c1 {
      scf.for %power_i1 = %c0 to %cols step %c1 {
        %power_w0 = arith.constant 3 : index
        %power_p0 = arith.muli %power_i0, %power_w0 : index
        %power_w1 = arith.constant 5 : index
        %power_p1 = arith.muli %power_i1, %power_w1 : index
        %power_s1 = arith.addi %power_p0, %power_p1 : index
        %power_m = arith.constant 5 : index
        %power_r = arith.remui %power_s1, %power_m : index
        %power_ri = arith.index_cast %power_r : index to i32
        %power_rf = arith.sitofp %power_ri : i32 to f32
        %power_h = arith.constant 0.0 : f32
        %power_v = arith.subf %power_rf, %power_h : f32
        memref.store %power_v, %power[%power_i0, %power_i1] : memref<?x?xf32>
      }
    }
  %src = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %src_i0 = %c0 to %rows step %c1 {
      scf.for %src_i1 = %c0 to %cols step %c1 {
        %src_w0 = arith.constant 3 : index
        %src_p0 = arith.muli %src_i0, %src_w0 : index
        %src_w1 = arith.constant 5 : index
        %src_p1 = arith.muli %src_i1, %src_w1 : index
        %src_s1 = arith.addi %src_p0, %src_p1 : index
        %src_m = arith.constant 7 : index
        %src_r = arith.remui %src_s1, %src_m : index
        %src_ri = arith.index_cast %src_r : index to i32
        %src_rf = arith.sitofp %src_ri : i32 to f32
        %src_h = arith.constant 3.0 : f32
        %src_v = arith.subf %src_rf, %src_h : f32
        memref.store %src_v, %src[%src_i0, %src_i1] : memref<?x?xf32>
      }
    }
  %dst = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %dst_i0 = %c0 to %rows step %c1 {
      scf.for %dst_i1 = %c0 to %cols step %c1 {
        %dst_w0 = arith.constant 3 : index
        %dst_p0 = arith.muli %dst_i0, %dst_w0 : index
        %dst_w1 = arith.constant 5 : index
        %dst_p1 = arith.muli %dst_i1, %dst_w1 : index
        %dst_s1 = arith.addi %dst_p0, %dst_p1 : index
        %dst_m = arith.constant 3 : index
        %dst_r = arith.remui %dst_s1, %dst_m : index
        %dst_ri = arith.index_cast %dst_r : index to i32
        %dst_rf = arith.sitofp %dst_ri : i32 to f32
        %dst_h = arith.constant 1.0 : f32
        %dst_v = arith.subf %dst_rf, %dst_h : f32
        memref.store %dst_v, %dst[%dst_i0, %dst_i1] : memref<?x?xf32>
      }
    }
  %cap = arith.constant 2.0 : f32
  %rx = arith.constant 4.0 : f32
  %ry = arith.constant 4.0 : f32
  %rz = arith.constant 8.0 : f32
  %step = arith.constant 0.5 : f32
  call @kernel(%power, %src, %dst, %cap, %rx, %ry, %rz, %step) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32, f32, f32, f32, f32) -> ()
  %dst_zero = arith.constant 0.0 : f32
  %dst_a0 = scf.for %dst_k0 = %c0 to %rows step %c1 iter_args(%dst_c0 = %dst_zero) -> f32 {
    %dst_a1 = scf.for %dst_k1 = %c0 to %cols step %c1 iter_args(%dst_c1 = %dst_c0) -> f32 {
      %dst_ld = memref.load %dst[%dst_k0, %dst_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %dst_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %dst_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %dst_ld, %wf : f32
      %sum = arith.addf %dst_c1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %dst_a1 : f32
  }
  %dst_scale = arith.constant 1000.0 : f32
  %dst_scaled = arith.mulf %dst_a0, %dst_scale : f32
  %dst_rounded = math.roundeven %dst_scaled : f32
  vector.print str "dst "
  vector.print %dst_rounded : f32
  return
}
