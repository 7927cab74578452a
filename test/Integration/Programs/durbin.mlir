// PolyBench durbin: Levinson-Durbin recursion for the Yule-Walker equations (a Toeplitz system).
// Source: PolyBench/C 4.2, linear-algebra/solvers/durbin (kernel_durbin)
// Translated to MLIR by hand as a user writes it: a host scf.for over k carrying alpha and beta in iter_args (each step needs the previous one), in it the dot product of r reversed with y as an scf.for with iter_args, two scf.parallel over i < k (the update into z and the copy back into y), and the stores of y[0] and y[k] from the host; z is the kernel's own memref.alloc.
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
// BOUND-DAG: remark: runs on one GPU thread
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: y 
// BUNDLE: --entry kernel --shape 0=4096 --shape 1=4096 --input 0=@harmonic

func.func @kernel(%r: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %r, %c0 : memref<?xf32>
  %z = memref.alloc(%n) : memref<?xf32>
  %r0 = memref.load %r[%c0] : memref<?xf32>
  %alpha0 = arith.negf %r0 : f32
  memref.store %alpha0, %y[%c0] : memref<?xf32>
  %res:2 = scf.for %k = %c1 to %n step %c1 iter_args(%alpha = %alpha0, %beta = %one) -> (f32, f32) {
    %aa = arith.mulf %alpha, %alpha : f32
    %oma = arith.subf %one, %aa : f32
    %nbeta = arith.mulf %oma, %beta : f32
    %km1 = arith.subi %k, %c1 : index
    // sum = sum_{i<k} r[k-i-1] y[i]: a reduction.
    %sum = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
      %ri = arith.subi %km1, %i : index
      %a = memref.load %r[%ri] : memref<?xf32>
      %b = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    %rk = memref.load %r[%k] : memref<?xf32>
    %rs = arith.addf %rk, %sum : f32
    %q = arith.divf %rs, %nbeta : f32
    %nalpha = arith.negf %q : f32
    // z[i] = y[i] + alpha y[k-i-1], then y[i] = z[i], i < k.
    scf.parallel (%i) = (%c0) to (%k) step (%c1) {
      %ri = arith.subi %km1, %i : index
      %a = memref.load %y[%i] : memref<?xf32>
      %b = memref.load %y[%ri] : memref<?xf32>
      %p = arith.mulf %nalpha, %b : f32
      %s = arith.addf %a, %p : f32
      memref.store %s, %z[%i] : memref<?xf32>
    }
    scf.parallel (%i) = (%c0) to (%k) step (%c1) {
      %v = memref.load %z[%i] : memref<?xf32>
      memref.store %v, %y[%i] : memref<?xf32>
    }
    memref.store %nalpha, %y[%k] : memref<?xf32>
    scf.yield %nalpha, %nbeta : f32, f32
  }
  memref.dealloc %z : memref<?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 29 : index
  %r = memref.alloc(%n) : memref<?xf32>
  scf.for %r_i0 = %c0 to %n step %c1 {
    %r_c2 = arith.constant 2 : index
    %r_k = arith.addi %r_i0, %r_c2 : index
    %r_ki = arith.index_cast %r_k : index to i32
    %r_kf = arith.sitofp %r_ki : i32 to f32
    %r_one = arith.constant 1.0 : f32
    %r_v = arith.divf %r_one, %r_kf : f32
    memref.store %r_v, %r[%r_i0] : memref<?xf32>
  }
  %y = memref.alloc(%n) : memref<?xf32>
  scf.for %y_i0 = %c0 to %n step %c1 {
    %y_w0 = arith.constant 3 : index
    %y_p0 = arith.muli %y_i0, %y_w0 : index
    %y_m = arith.constant 3 : index
    %y_r = arith.remui %y_p0, %y_m : index
    %y_ri = arith.index_cast %y_r : index to i32
    %y_rf = arith.sitofp %y_ri : i32 to f32
    %y_h = arith.constant 1.0 : f32
    %y_v = arith.subf %y_rf, %y_h : f32
    memref.store %y_v, %y[%y_i0] : memref<?xf32>
  }
  call @kernel(%r, %y) : (memref<?xf32>, memref<?xf32>) -> ()
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
  %y_scale = arith.constant 1000.0 : f32
  %y_scaled = arith.mulf %y_sum, %y_scale : f32
  %y_round = math.roundeven %y_scaled : f32
  vector.print str "y "
  vector.print %y_round : f32
  return
}
