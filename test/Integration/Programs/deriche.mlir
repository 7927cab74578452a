// PolyBench deriche: the Deriche recursive edge-detection filter, horizontal then vertical, each a causal and an anticausal pass summed.
// Source: PolyBench/C 4.2, medley/deriche (kernel_deriche), with PolyBench's coefficients (b1 = 2^-alpha) and alpha = 0.25
// Translated to MLIR by hand as a user writes it: each recursive pass an scf.parallel across rows (or columns) around an scf.for along them carrying the filter state in iter_args (a recurrence, not a reduction), the sums of the passes an scf.parallel over (i, j).
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
// CHECK: imgOut 
// CHECK: y1 
// CHECK: y2 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048x2048 --shape 2=2048x2048 --shape 3=2048x2048

func.func @kernel(%imgIn: memref<?x?xf32>, %imgOut: memref<?x?xf32>, %y1: memref<?x?xf32>, %y2: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %alpha = arith.constant 0.25 : f32
  %w = memref.dim %imgIn, %c0 : memref<?x?xf32>
  %h = memref.dim %imgIn, %c1 : memref<?x?xf32>
  %wlast = arith.subi %w, %c1 : index
  %hlast = arith.subi %h, %c1 : index
  // The coefficients, as PolyBench computes them.
  %na = arith.negf %alpha : f32
  %ea = math.exp %na : f32
  %n2a = arith.mulf %two, %na : f32
  %e2a = math.exp %n2a : f32
  %p2a = arith.mulf %two, %alpha : f32
  %ep2a = math.exp %p2a : f32
  %om = arith.subf %one, %ea : f32
  %num = arith.mulf %om, %om : f32
  %tae = arith.mulf %p2a, %ea : f32
  %d0 = arith.addf %one, %tae : f32
  %den = arith.subf %d0, %ep2a : f32
  %k = arith.divf %num, %den : f32
  %a1 = arith.addf %k, %zero : f32
  %a5 = arith.addf %k, %zero : f32
  %ke = arith.mulf %k, %ea : f32
  %am1 = arith.subf %alpha, %one : f32
  %a2 = arith.mulf %ke, %am1 : f32
  %a6 = arith.mulf %ke, %am1 : f32
  %ap1 = arith.addf %alpha, %one : f32
  %a3 = arith.mulf %ke, %ap1 : f32
  %a7 = arith.mulf %ke, %ap1 : f32
  %ke2 = arith.mulf %k, %e2a : f32
  %a4 = arith.negf %ke2 : f32
  %a8 = arith.negf %ke2 : f32
  %b1 = math.powf %two, %na : f32
  %b2 = arith.negf %e2a : f32
  %c1f = arith.constant 1.0 : f32
  %c2f = arith.constant 1.0 : f32

  // Horizontal, causal: left to right along each row, the rows in parallel.
  scf.parallel (%i) = (%c0) to (%w) step (%c1) {
    %r:3 = scf.for %j = %c0 to %h step %c1 iter_args(%xm1 = %zero, %ym1 = %zero, %ym2 = %zero) -> (f32, f32, f32) {
      %x = memref.load %imgIn[%i, %j] : memref<?x?xf32>
      %t0 = arith.mulf %a1, %x : f32
      %t1 = arith.mulf %a2, %xm1 : f32
      %t2 = arith.mulf %b1, %ym1 : f32
      %t3 = arith.mulf %b2, %ym2 : f32
      %s0 = arith.addf %t0, %t1 : f32
      %s1 = arith.addf %s0, %t2 : f32
      %y = arith.addf %s1, %t3 : f32
      memref.store %y, %y1[%i, %j] : memref<?x?xf32>
      scf.yield %x, %y, %ym1 : f32, f32, f32
    }
  }
  // Horizontal, anticausal: right to left along each row.
  scf.parallel (%i) = (%c0) to (%w) step (%c1) {
    %r:4 = scf.for %jj = %c0 to %h step %c1 iter_args(%xp1 = %zero, %xp2 = %zero, %yp1 = %zero, %yp2 = %zero) -> (f32, f32, f32, f32) {
      %j = arith.subi %hlast, %jj : index
      %t0 = arith.mulf %a3, %xp1 : f32
      %t1 = arith.mulf %a4, %xp2 : f32
      %t2 = arith.mulf %b1, %yp1 : f32
      %t3 = arith.mulf %b2, %yp2 : f32
      %s0 = arith.addf %t0, %t1 : f32
      %s1 = arith.addf %s0, %t2 : f32
      %y = arith.addf %s1, %t3 : f32
      memref.store %y, %y2[%i, %j] : memref<?x?xf32>
      %x = memref.load %imgIn[%i, %j] : memref<?x?xf32>
      scf.yield %x, %xp1, %y, %yp1 : f32, f32, f32, f32
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%w, %h) step (%c1, %c1) {
    %u = memref.load %y1[%i, %j] : memref<?x?xf32>
    %v = memref.load %y2[%i, %j] : memref<?x?xf32>
    %s = arith.addf %u, %v : f32
    %o = arith.mulf %c1f, %s : f32
    memref.store %o, %imgOut[%i, %j] : memref<?x?xf32>
  }
  // Vertical, causal: top to bottom along each column, the columns in parallel.
  scf.parallel (%j) = (%c0) to (%h) step (%c1) {
    %r:3 = scf.for %i = %c0 to %w step %c1 iter_args(%tm1 = %zero, %ym1 = %zero, %ym2 = %zero) -> (f32, f32, f32) {
      %x = memref.load %imgOut[%i, %j] : memref<?x?xf32>
      %t0 = arith.mulf %a5, %x : f32
      %t1 = arith.mulf %a6, %tm1 : f32
      %t2 = arith.mulf %b1, %ym1 : f32
      %t3 = arith.mulf %b2, %ym2 : f32
      %s0 = arith.addf %t0, %t1 : f32
      %s1 = arith.addf %s0, %t2 : f32
      %y = arith.addf %s1, %t3 : f32
      memref.store %y, %y1[%i, %j] : memref<?x?xf32>
      scf.yield %x, %y, %ym1 : f32, f32, f32
    }
  }
  // Vertical, anticausal: bottom to top.
  scf.parallel (%j) = (%c0) to (%h) step (%c1) {
    %r:4 = scf.for %ii = %c0 to %w step %c1 iter_args(%tp1 = %zero, %tp2 = %zero, %yp1 = %zero, %yp2 = %zero) -> (f32, f32, f32, f32) {
      %i = arith.subi %wlast, %ii : index
      %t0 = arith.mulf %a7, %tp1 : f32
      %t1 = arith.mulf %a8, %tp2 : f32
      %t2 = arith.mulf %b1, %yp1 : f32
      %t3 = arith.mulf %b2, %yp2 : f32
      %s0 = arith.addf %t0, %t1 : f32
      %s1 = arith.addf %s0, %t2 : f32
      %y = arith.addf %s1, %t3 : f32
      memref.store %y, %y2[%i, %j] : memref<?x?xf32>
      %x = memref.load %imgOut[%i, %j] : memref<?x?xf32>
      scf.yield %x, %tp1, %y, %yp1 : f32, f32, f32, f32
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%w, %h) step (%c1, %c1) {
    %u = memref.load %y1[%i, %j] : memref<?x?xf32>
    %v = memref.load %y2[%i, %j] : memref<?x?xf32>
    %s = arith.addf %u, %v : f32
    %o = arith.mulf %c2f, %s : f32
    memref.store %o, %imgOut[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %W = arith.constant 37 : index
  %H = arith.constant 29 : index
  %imgIn = memref.alloc(%W, %H) : memref<?x?xf32>
  scf.for %imgIn_i0 = %c0 to %W step %c1 {
    scf.for %imgIn_i1 = %c0 to %H step %c1 {
      %imgIn_w0 = arith.constant 3 : index
      %imgIn_p0 = arith.muli %imgIn_i0, %imgIn_w0 : index
      %imgIn_w1 = arith.constant 5 : index
      %imgIn_p1 = arith.muli %imgIn_i1, %imgIn_w1 : index
      %imgIn_s1 = arith.addi %imgIn_p0, %imgIn_p1 : index
      %imgIn_m = arith.constant 5 : index
      %imgIn_r = arith.remui %imgIn_s1, %imgIn_m : index
      %imgIn_ri = arith.index_cast %imgIn_r : index to i32
      %imgIn_rf = arith.sitofp %imgIn_ri : i32 to f32
      %imgIn_h = arith.constant 2.0 : f32
      %imgIn_v = arith.subf %imgIn_rf, %imgIn_h : f32
      memref.store %imgIn_v, %imgIn[%imgIn_i0, %imgIn_i1] : memref<?x?xf32>
    }
  }
  %imgOut = memref.alloc(%W, %H) : memref<?x?xf32>
  scf.for %imgOut_i0 = %c0 to %W step %c1 {
    scf.for %imgOut_i1 = %c0 to %H step %c1 {
      %imgOut_w0 = arith.constant 3 : index
      %imgOut_p0 = arith.muli %imgOut_i0, %imgOut_w0 : index
      %imgOut_w1 = arith.constant 5 : index
      %imgOut_p1 = arith.muli %imgOut_i1, %imgOut_w1 : index
      %imgOut_s1 = arith.addi %imgOut_p0, %imgOut_p1 : index
      %imgOut_m = arith.constant 3 : index
      %imgOut_r = arith.remui %imgOut_s1, %imgOut_m : index
      %imgOut_ri = arith.index_cast %imgOut_r : index to i32
      %imgOut_rf = arith.sitofp %imgOut_ri : i32 to f32
      %imgOut_h = arith.constant 1.0 : f32
      %imgOut_v = arith.subf %imgOut_rf, %imgOut_h : f32
      memref.store %imgOut_v, %imgOut[%imgOut_i0, %imgOut_i1] : memref<?x?xf32>
    }
  }
  %y1 = memref.alloc(%W, %H) : memref<?x?xf32>
  scf.for %y1_i0 = %c0 to %W step %c1 {
    scf.for %y1_i1 = %c0 to %H step %c1 {
      %y1_w0 = arith.constant 3 : index
      %y1_p0 = arith.muli %y1_i0, %y1_w0 : index
      %y1_w1 = arith.constant 5 : index
      %y1_p1 = arith.muli %y1_i1, %y1_w1 : index
      %y1_s1 = arith.addi %y1_p0, %y1_p1 : index
      %y1_m = arith.constant 3 : index
      %y1_r = arith.remui %y1_s1, %y1_m : index
      %y1_ri = arith.index_cast %y1_r : index to i32
      %y1_rf = arith.sitofp %y1_ri : i32 to f32
      %y1_h = arith.constant 1.0 : f32
      %y1_v = arith.subf %y1_rf, %y1_h : f32
      memref.store %y1_v, %y1[%y1_i0, %y1_i1] : memref<?x?xf32>
    }
  }
  %y2 = memref.alloc(%W, %H) : memref<?x?xf32>
  scf.for %y2_i0 = %c0 to %W step %c1 {
    scf.for %y2_i1 = %c0 to %H step %c1 {
      %y2_w0 = arith.constant 3 : index
      %y2_p0 = arith.muli %y2_i0, %y2_w0 : index
      %y2_w1 = arith.constant 5 : index
      %y2_p1 = arith.muli %y2_i1, %y2_w1 : index
      %y2_s1 = arith.addi %y2_p0, %y2_p1 : index
      %y2_m = arith.constant 3 : index
      %y2_r = arith.remui %y2_s1, %y2_m : index
      %y2_ri = arith.index_cast %y2_r : index to i32
      %y2_rf = arith.sitofp %y2_ri : i32 to f32
      %y2_h = arith.constant 1.0 : f32
      %y2_v = arith.subf %y2_rf, %y2_h : f32
      memref.store %y2_v, %y2[%y2_i0, %y2_i1] : memref<?x?xf32>
    }
  }
  call @kernel(%imgIn, %imgOut, %y1, %y2) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %imgOut_zero = arith.constant 0.0 : f32
  %imgOut_sum = scf.for %i = %c0 to %W step %c1 iter_args(%a0 = %imgOut_zero) -> f32 {
   %r = scf.for %j = %c0 to %H step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %imgOut[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %H : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
   scf.yield %r : f32
  }
  %imgOut_scale = arith.constant 1000.0 : f32
  %imgOut_scaled = arith.mulf %imgOut_sum, %imgOut_scale : f32
  %imgOut_round = math.roundeven %imgOut_scaled : f32
  vector.print str "imgOut "
  vector.print %imgOut_round : f32
  %y1_zero = arith.constant 0.0 : f32
  %y1_sum = scf.for %i = %c0 to %W step %c1 iter_args(%a0 = %y1_zero) -> f32 {
   %r = scf.for %j = %c0 to %H step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %y1[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %H : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
   scf.yield %r : f32
  }
  %y1_scale = arith.constant 1000.0 : f32
  %y1_scaled = arith.mulf %y1_sum, %y1_scale : f32
  %y1_round = math.roundeven %y1_scaled : f32
  vector.print str "y1 "
  vector.print %y1_round : f32
  %y2_zero = arith.constant 0.0 : f32
  %y2_sum = scf.for %i = %c0 to %W step %c1 iter_args(%a0 = %y2_zero) -> f32 {
   %r = scf.for %j = %c0 to %H step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %y2[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %H : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
   scf.yield %r : f32
  }
  %y2_scale = arith.constant 1000.0 : f32
  %y2_scaled = arith.mulf %y2_sum, %y2_scale : f32
  %y2_round = math.roundeven %y2_scaled : f32
  vector.print str "y2 "
  vector.print %y2_round : f32
  return
}
