// PolyBench ludcmp: LU decomposition without pivoting, then forward and back substitution, A x = b.
// Source: PolyBench/C 4.2, linear-algebra/solvers/ludcmp (kernel_ludcmp), the decomposition in its right-looking form
// Translated to MLIR by hand as a user writes it: the decomposition as lu.mlir (a host scf.for over k around two scf.parallel), then the two substitutions as host scf.for loops over the rows, each row's w = b[i] - sum_j A[i][j] y[j] an scf.for with iter_args starting at b[i] as PolyBench writes it.
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
// BOUND-DAG: remark: runs on one GPU thread
// CHECK: A 
// CHECK: y 
// CHECK: x 
// BUNDLE: --entry kernel --shape 0=1024x1024 --shape 1=1024 --shape 2=1024 --shape 3=1024 --input 0=@diagdom

func.func @kernel(%A: memref<?x?xf32>, %b: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %last = arith.subi %n, %c1 : index
  // A = L U in place.
  scf.for %k = %c0 to %n step %c1 {
    %k1 = arith.addi %k, %c1 : index
    scf.parallel (%i) = (%k1) to (%n) step (%c1) {
      %a = memref.load %A[%i, %k] : memref<?x?xf32>
      %p = memref.load %A[%k, %k] : memref<?x?xf32>
      %l = arith.divf %a, %p : f32
      memref.store %l, %A[%i, %k] : memref<?x?xf32>
    }
    scf.parallel (%i, %j) = (%k1, %k1) to (%n, %n) step (%c1, %c1) {
      %l = memref.load %A[%i, %k] : memref<?x?xf32>
      %u = memref.load %A[%k, %j] : memref<?x?xf32>
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %p = arith.mulf %l, %u : f32
      %d = arith.subf %a, %p : f32
      memref.store %d, %A[%i, %j] : memref<?x?xf32>
    }
  }
  // L y = b: y[i] = b[i] - sum_{j<i} A[i][j] y[j].
  scf.for %i = %c0 to %n step %c1 {
    %bi = memref.load %b[%i] : memref<?xf32>
    %w = scf.for %j = %c0 to %i step %c1 iter_args(%acc = %bi) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %v = memref.load %y[%j] : memref<?xf32>
      %p = arith.mulf %a, %v : f32
      %t = arith.subf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %w, %y[%i] : memref<?xf32>
  }
  // U x = y, from the last row up: x[i] = (y[i] - sum_{j>i} A[i][j] x[j]) / A[i][i].
  scf.for %r = %c0 to %n step %c1 {
    %i = arith.subi %last, %r : index
    %i1 = arith.addi %i, %c1 : index
    %yi = memref.load %y[%i] : memref<?xf32>
    %w = scf.for %j = %i1 to %n step %c1 iter_args(%acc = %yi) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %v = memref.load %x[%j] : memref<?xf32>
      %p = arith.mulf %a, %v : f32
      %t = arith.subf %acc, %p : f32
      scf.yield %t : f32
    }
    %aii = memref.load %A[%i, %i] : memref<?x?xf32>
    %xi = arith.divf %w, %aii : f32
    memref.store %xi, %x[%i] : memref<?xf32>
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
  %n = arith.constant 29 : index
  %A = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %A_i0 = %c0 to %n step %c1 {
    scf.for %A_i1 = %c0 to %n step %c1 {
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
      %A_o = arith.subf %A_rf, %A_h : f32
      %A_eq = arith.cmpi eq, %A_i0, %A_i1 : index
      %A_dg = arith.constant 64.0 : f32
      %A_z = arith.constant 0.0 : f32
      %A_d = arith.select %A_eq, %A_dg, %A_z : f32
      %A_v = arith.addf %A_o, %A_d : f32
      memref.store %A_v, %A[%A_i0, %A_i1] : memref<?x?xf32>
    }
  }
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %b_i0 = %c0 to %n step %c1 {
    %b_w0 = arith.constant 3 : index
    %b_p0 = arith.muli %b_i0, %b_w0 : index
    %b_m = arith.constant 5 : index
    %b_r = arith.remui %b_p0, %b_m : index
    %b_ri = arith.index_cast %b_r : index to i32
    %b_rf = arith.sitofp %b_ri : i32 to f32
    %b_h = arith.constant 2.0 : f32
    %b_v = arith.subf %b_rf, %b_h : f32
    memref.store %b_v, %b[%b_i0] : memref<?xf32>
  }
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %x_i0 = %c0 to %n step %c1 {
    %x_w0 = arith.constant 3 : index
    %x_p0 = arith.muli %x_i0, %x_w0 : index
    %x_m = arith.constant 3 : index
    %x_r = arith.remui %x_p0, %x_m : index
    %x_ri = arith.index_cast %x_r : index to i32
    %x_rf = arith.sitofp %x_ri : i32 to f32
    %x_h = arith.constant 1.0 : f32
    %x_v = arith.subf %x_rf, %x_h : f32
    memref.store %x_v, %x[%x_i0] : memref<?xf32>
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
  call @kernel(%A, %b, %x, %y) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %A_zero = arith.constant 0.0 : f32
  %A_sum = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %A_zero) -> f32 {
   %r = scf.for %j = %c0 to %n step %c1 iter_args(%a = %a0) -> f32 {
    %v = memref.load %A[%i, %j] : memref<?x?xf32>
    %c7 = arith.constant 7 : index
    %row = arith.muli %i, %n : index
    %e = arith.addi %row, %j : index
    %w = arith.remui %e, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
   memref.store %r, %order[] : memref<f32>
   scf.yield %r : f32
  }
  %A_scale = arith.constant 1000.0 : f32
  %A_scaled = arith.mulf %A_sum, %A_scale : f32
  %A_round = math.roundeven %A_scaled : f32
  vector.print str "A "
  vector.print %A_round : f32
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
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
  %y_scale = arith.constant 1000.0 : f32
  %y_scaled = arith.mulf %y_sum, %y_scale : f32
  %y_round = math.roundeven %y_scaled : f32
  vector.print str "y "
  vector.print %y_round : f32
  %x_zero = arith.constant 0.0 : f32
  %x_sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x_zero) -> f32 {
    %v = memref.load %x[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    memref.store %sum, %order[] : memref<f32>
    scf.yield %sum : f32
  }
  %x_scale = arith.constant 1000.0 : f32
  %x_scaled = arith.mulf %x_sum, %x_scale : f32
  %x_round = math.roundeven %x_scaled : f32
  vector.print str "x "
  vector.print %x_round : f32
  return
}
