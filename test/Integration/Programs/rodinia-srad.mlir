// Rodinia srad: one iteration of speckle reducing anisotropic diffusion on an image.
// Source: Rodinia 3.1, srad_v1 (one iteration of main.cu's loop: the prepare and reduce kernels' image statistics, then the srad and srad2 kernels), on a row-major image with the neighbours clamped instead of read from iN/iS/jW/jE
// Translated to MLIR by hand as a user writes it: the statistics an scf.parallel with two scf.reduce sums; the derivatives and coefficient, then the divergence update, as 2-D scf.parallel loops, neighbours clamped with arith.maxsi/minsi.
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
// BOUND-DAG: remark: reduces over 2 dimensions: linearised into one
// BOUND-DAG: remark: the reduced values come back to the host
// BOUND-DAG: remark: reduction mapped: 2 value(s)
// BOUND-NOT: warning: cannot be bound to the GPU in parallel
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: J 
// CHECK: c 
// BUNDLE: --entry kernel --shape 0=1024x1024 --shape 1=1024x1024 --shape 2=1024x1024 --shape 3=1024x1024 --shape 4=1024x1024 --shape 5=1024x1024 --scalar 6=0.5

func.func @kernel(%J: memref<?x?xf32>, %c: memref<?x?xf32>, %dN: memref<?x?xf32>, %dS: memref<?x?xf32>, %dW: memref<?x?xf32>, %dE: memref<?x?xf32>, %lambda: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %sixteenth = arith.constant 0.0625 : f32
  %rows = memref.dim %J, %c0 : memref<?x?xf32>
  %cols = memref.dim %J, %c1 : memref<?x?xf32>
  %lastr = arith.subi %rows, %c1 : index
  %lastc = arith.subi %cols, %c1 : index
  // The statistics of the image (the whole image is the region of
  // interest): its sum and its sum of squares.
  %sums:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) init (%zero, %zero) -> (f32, f32) {
    %v = memref.load %J[%i, %j] : memref<?x?xf32>
    %v2 = arith.mulf %v, %v : f32
    scf.reduce(%v, %v2 : f32, f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  %ne = arith.muli %rows, %cols : index
  %nei = arith.index_cast %ne : index to i32
  %nef = arith.sitofp %nei : i32 to f32
  %mean = arith.divf %sums#0, %nef : f32
  %mean2 = arith.mulf %mean, %mean : f32
  %m2 = arith.divf %sums#1, %nef : f32
  %var = arith.subf %m2, %mean2 : f32
  %q0sqr = arith.divf %var, %mean2 : f32
  %q0p1 = arith.addf %one, %q0sqr : f32
  %q0den = arith.mulf %q0sqr, %q0p1 : f32
  // Derivatives toward the four neighbours (clamped at the edges) and the
  // diffusion coefficient.
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %in = arith.maxsi %im, %c0 : index
    %is = arith.minsi %ip, %lastr : index
    %jw = arith.maxsi %jm, %c0 : index
    %je = arith.minsi %jp, %lastc : index
    %jc = memref.load %J[%i, %j] : memref<?x?xf32>
    %vn = memref.load %J[%in, %j] : memref<?x?xf32>
    %vs = memref.load %J[%is, %j] : memref<?x?xf32>
    %vw = memref.load %J[%i, %jw] : memref<?x?xf32>
    %ve = memref.load %J[%i, %je] : memref<?x?xf32>
    %n = arith.subf %vn, %jc : f32
    %s = arith.subf %vs, %jc : f32
    %w = arith.subf %vw, %jc : f32
    %e = arith.subf %ve, %jc : f32
    memref.store %n, %dN[%i, %j] : memref<?x?xf32>
    memref.store %s, %dS[%i, %j] : memref<?x?xf32>
    memref.store %w, %dW[%i, %j] : memref<?x?xf32>
    memref.store %e, %dE[%i, %j] : memref<?x?xf32>
    %n2 = arith.mulf %n, %n : f32
    %s2 = arith.mulf %s, %s : f32
    %w2 = arith.mulf %w, %w : f32
    %e2 = arith.mulf %e, %e : f32
    %g0 = arith.addf %n2, %s2 : f32
    %g1 = arith.addf %g0, %w2 : f32
    %g2 = arith.addf %g1, %e2 : f32
    %jc2 = arith.mulf %jc, %jc : f32
    %G2 = arith.divf %g2, %jc2 : f32
    %l0 = arith.addf %n, %s : f32
    %l1 = arith.addf %l0, %w : f32
    %l2 = arith.addf %l1, %e : f32
    %L = arith.divf %l2, %jc : f32
    %hg = arith.mulf %half, %G2 : f32
    %LL = arith.mulf %L, %L : f32
    %sl = arith.mulf %sixteenth, %LL : f32
    %num = arith.subf %hg, %sl : f32
    %ql = arith.mulf %quarter, %L : f32
    %den = arith.addf %one, %ql : f32
    %den2 = arith.mulf %den, %den : f32
    %qsqr = arith.divf %num, %den2 : f32
    %dq = arith.subf %qsqr, %q0sqr : f32
    %dd = arith.divf %dq, %q0den : f32
    %dd1 = arith.addf %one, %dd : f32
    %cv = arith.divf %one, %dd1 : f32
    // Saturate the coefficient to [0, 1].
    %neg = arith.cmpf olt, %cv, %zero : f32
    %big = arith.cmpf ogt, %cv, %one : f32
    %c_hi = arith.select %big, %one, %cv : f32
    %c_lo = arith.select %neg, %zero, %c_hi : f32
    memref.store %c_lo, %c[%i, %j] : memref<?x?xf32>
  }
  // The divergence of c grad J, and the update of the image.
  %ql = arith.mulf %quarter, %lambda : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %ip = arith.addi %i, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %is = arith.minsi %ip, %lastr : index
    %je = arith.minsi %jp, %lastc : index
    %cn = memref.load %c[%i, %j] : memref<?x?xf32>
    %cs = memref.load %c[%is, %j] : memref<?x?xf32>
    %ce = memref.load %c[%i, %je] : memref<?x?xf32>
    %n = memref.load %dN[%i, %j] : memref<?x?xf32>
    %s = memref.load %dS[%i, %j] : memref<?x?xf32>
    %w = memref.load %dW[%i, %j] : memref<?x?xf32>
    %e = memref.load %dE[%i, %j] : memref<?x?xf32>
    %tn = arith.mulf %cn, %n : f32
    %ts = arith.mulf %cs, %s : f32
    %tw = arith.mulf %cn, %w : f32
    %te = arith.mulf %ce, %e : f32
    %d0 = arith.addf %tn, %ts : f32
    %d1 = arith.addf %d0, %tw : f32
    %D = arith.addf %d1, %te : f32
    %jv = memref.load %J[%i, %j] : memref<?x?xf32>
    %u = arith.mulf %ql, %D : f32
    %nj = arith.addf %jv, %u : f32
    memref.store %nj, %J[%i, %j] : memref<?x?xf32>
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
  %rows = arith.constant 37 : index
  %cols = arith.constant 29 : index
  %J = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %J_i0 = %c0 to %rows step %c1 {
      scf.for %J_i1 = %c0 to %cols step %c1 {
        %J_w0 = arith.constant 3 : index
        %J_p0 = arith.muli %J_i0, %J_w0 : index
        %J_w1 = arith.constant 5 : index
        %J_p1 = arith.muli %J_i1, %J_w1 : index
        %J_s1 = arith.addi %J_p0, %J_p1 : index
        %J_m = arith.constant 5 : index
        %J_r = arith.remui %J_s1, %J_m : index
        %J_ri = arith.index_cast %J_r : index to i32
        %J_rf = arith.sitofp %J_ri : i32 to f32
        %J_h = arith.constant -1.0 : f32
        %J_v = arith.subf %J_rf, %J_h : f32
        memref.store %J_v, %J[%J_i0, %J_i1] : memref<?x?xf32>
      }
    }
  %c = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %c_i0 = %c0 to %rows step %c1 {
      scf.for %c_i1 = %c0 to %cols step %c1 {
        %c_w0 = arith.constant 3 : index
        %c_p0 = arith.muli %c_i0, %c_w0 : index
        %c_w1 = arith.constant 5 : index
        %c_p1 = arith.muli %c_i1, %c_w1 : index
        %c_s1 = arith.addi %c_p0, %c_p1 : index
        %c_m = arith.constant 3 : index
        %c_r = arith.remui %c_s1, %c_m : index
        %c_ri = arith.index_cast %c_r : index to i32
        %c_rf = arith.sitofp %c_ri : i32 to f32
        %c_h = arith.constant 1.0 : f32
        %c_v = arith.subf %c_rf, %c_h : f32
        memref.store %c_v, %c[%c_i0, %c_i1] : memref<?x?xf32>
      }
    }
  %dN = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %dN_i0 = %c0 to %rows step %c1 {
      scf.for %dN_i1 = %c0 to %cols step %c1 {
        %dN_w0 = arith.constant 3 : index
        %dN_p0 = arith.muli %dN_i0, %dN_w0 : index
        %dN_w1 = arith.constant 5 : index
        %dN_p1 = arith.muli %dN_i1, %dN_w1 : index
        %dN_s1 = arith.addi %dN_p0, %dN_p1 : index
        %dN_m = arith.constant 3 : index
        %dN_r = arith.remui %dN_s1, %dN_m : index
        %dN_ri = arith.index_cast %dN_r : index to i32
        %dN_rf = arith.sitofp %dN_ri : i32 to f32
        %dN_h = arith.constant 1.0 : f32
        %dN_v = arith.subf %dN_rf, %dN_h : f32
        memref.store %dN_v, %dN[%dN_i0, %dN_i1] : memref<?x?xf32>
      }
    }
  %dS = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %dS_i0 = %c0 to %rows step %c1 {
      scf.for %dS_i1 = %c0 to %cols step %c1 {
        %dS_w0 = arith.constant 3 : index
        %dS_p0 = arith.muli %dS_i0, %dS_w0 : index
        %dS_w1 = arith.constant 5 : index
        %dS_p1 = arith.muli %dS_i1, %dS_w1 : index
        %dS_s1 = arith.addi %dS_p0, %dS_p1 : index
        %dS_m = arith.constant 3 : index
        %dS_r = arith.remui %dS_s1, %dS_m : index
        %dS_ri = arith.index_cast %dS_r : index to i32
        %dS_rf = arith.sitofp %dS_ri : i32 to f32
        %dS_h = arith.constant 1.0 : f32
        %dS_v = arith.subf %dS_rf, %dS_h : f32
        memref.store %dS_v, %dS[%dS_i0, %dS_i1] : memref<?x?xf32>
      }
    }
  %dW = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %dW_i0 = %c0 to %rows step %c1 {
      scf.for %dW_i1 = %c0 to %cols step %c1 {
        %dW_w0 = arith.constant 3 : index
        %dW_p0 = arith.muli %dW_i0, %dW_w0 : index
        %dW_w1 = arith.constant 5 : index
        %dW_p1 = arith.muli %dW_i1, %dW_w1 : index
        %dW_s1 = arith.addi %dW_p0, %dW_p1 : index
        %dW_m = arith.constant 3 : index
        %dW_r = arith.remui %dW_s1, %dW_m : index
        %dW_ri = arith.index_cast %dW_r : index to i32
        %dW_rf = arith.sitofp %dW_ri : i32 to f32
        %dW_h = arith.constant 1.0 : f32
        %dW_v = arith.subf %dW_rf, %dW_h : f32
        memref.store %dW_v, %dW[%dW_i0, %dW_i1] : memref<?x?xf32>
      }
    }
  %dE = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %dE_i0 = %c0 to %rows step %c1 {
      scf.for %dE_i1 = %c0 to %cols step %c1 {
        %dE_w0 = arith.constant 3 : index
        %dE_p0 = arith.muli %dE_i0, %dE_w0 : index
        %dE_w1 = arith.constant 5 : index
        %dE_p1 = arith.muli %dE_i1, %dE_w1 : index
        %dE_s1 = arith.addi %dE_p0, %dE_p1 : index
        %dE_m = arith.constant 3 : index
        %dE_r = arith.remui %dE_s1, %dE_m : index
        %dE_ri = arith.index_cast %dE_r : index to i32
        %dE_rf = arith.sitofp %dE_ri : i32 to f32
        %dE_h = arith.constant 1.0 : f32
        %dE_v = arith.subf %dE_rf, %dE_h : f32
        memref.store %dE_v, %dE[%dE_i0, %dE_i1] : memref<?x?xf32>
      }
    }
  %lambda = arith.constant 0.5 : f32
  call @kernel(%J, %c, %dN, %dS, %dW, %dE, %lambda) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32) -> ()
  %J_zero = arith.constant 0.0 : f32
  %J_a0 = scf.for %J_k0 = %c0 to %rows step %c1 iter_args(%J_c0 = %J_zero) -> f32 {
    %J_a1 = scf.for %J_k1 = %c0 to %cols step %c1 iter_args(%J_c1 = %J_c0) -> f32 {
      %J_ld = memref.load %J[%J_k0, %J_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %J_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %J_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %J_ld, %wf : f32
      %sum = arith.addf %J_c1, %prod : f32
      memref.store %sum, %order[] : memref<f32>
      scf.yield %sum : f32
    }
    memref.store %J_a1, %order[] : memref<f32>
    scf.yield %J_a1 : f32
  }
  %J_scale = arith.constant 1000.0 : f32
  %J_scaled = arith.mulf %J_a0, %J_scale : f32
  %J_rounded = math.roundeven %J_scaled : f32
  vector.print str "J "
  vector.print %J_rounded : f32
  %c_zero = arith.constant 0.0 : f32
  %c_a0 = scf.for %c_k0 = %c0 to %rows step %c1 iter_args(%c_c0 = %c_zero) -> f32 {
    %c_a1 = scf.for %c_k1 = %c0 to %cols step %c1 iter_args(%c_c1 = %c_c0) -> f32 {
      %c_ld = memref.load %c[%c_k0, %c_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %c_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %c_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %c_ld, %wf : f32
      %sum = arith.addf %c_c1, %prod : f32
      memref.store %sum, %order[] : memref<f32>
      scf.yield %sum : f32
    }
    memref.store %c_a1, %order[] : memref<f32>
    scf.yield %c_a1 : f32
  }
  %c_scale = arith.constant 1000.0 : f32
  %c_scaled = arith.mulf %c_a0, %c_scale : f32
  %c_rounded = math.roundeven %c_scaled : f32
  vector.print str "c "
  vector.print %c_rounded : f32
  return
}
