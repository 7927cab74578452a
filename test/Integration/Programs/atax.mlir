// PolyBench atax: y = A^T (A x), as two nests with iter_args reductions.
// Source: PolyBench/C 4.2, linear-algebra/kernels/atax (kernel_atax), split into PolyBench/GPU's two kernels
// Translated to MLIR by hand as a user writes it: one parallel loop per output vector, the inner sum in an scf.for with iter_args.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner
// BUNDLE: --entry kernel --shape 0=4096x4096 --shape 1=4096 --shape 2=4096 --shape 3=4096

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
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: tmp 
// CHECK: y 

func.func @kernel(%A: memref<?x?xf32>, %x: memref<?xf32>, %tmp: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  // tmp[i] = sum_j A[i][j] x[j]: a row reduction.
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %x[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %tmp[%i] : memref<?xf32>
  }
  // y[j] = sum_i A[i][j] tmp[i]: a column reduction, a thread a column.
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %tmp[%i] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %y[%j] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 37 : index
  %n = arith.constant 29 : index
  %A = memref.alloc(%m, %n) : memref<?x?xf32>
    scf.for %A_i0 = %c0 to %m step %c1 {
      scf.for %A_i1 = %c0 to %n step %c1 {
        %A_w0 = arith.constant 7 : index
        %A_p0 = arith.muli %A_i0, %A_w0 : index
        %A_w1 = arith.constant 11 : index
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
  %x = memref.alloc(%n) : memref<?xf32>
    scf.for %x_i0 = %c0 to %n step %c1 {
      %x_w0 = arith.constant 7 : index
      %x_p0 = arith.muli %x_i0, %x_w0 : index
      %x_m = arith.constant 4 : index
      %x_r = arith.remui %x_p0, %x_m : index
      %x_ri = arith.index_cast %x_r : index to i32
      %x_rf = arith.sitofp %x_ri : i32 to f32
      %x_h = arith.constant 2.0 : f32
      %x_v = arith.subf %x_rf, %x_h : f32
      memref.store %x_v, %x[%x_i0] : memref<?xf32>
    }
  %tmp = memref.alloc(%m) : memref<?xf32>
    scf.for %tmp_i0 = %c0 to %m step %c1 {
      %tmp_w0 = arith.constant 7 : index
      %tmp_p0 = arith.muli %tmp_i0, %tmp_w0 : index
      %tmp_m = arith.constant 3 : index
      %tmp_r = arith.remui %tmp_p0, %tmp_m : index
      %tmp_ri = arith.index_cast %tmp_r : index to i32
      %tmp_rf = arith.sitofp %tmp_ri : i32 to f32
      %tmp_h = arith.constant 1.0 : f32
      %tmp_v = arith.subf %tmp_rf, %tmp_h : f32
      memref.store %tmp_v, %tmp[%tmp_i0] : memref<?xf32>
    }
  %y = memref.alloc(%n) : memref<?xf32>
    scf.for %y_i0 = %c0 to %n step %c1 {
      %y_w0 = arith.constant 7 : index
      %y_p0 = arith.muli %y_i0, %y_w0 : index
      %y_m = arith.constant 3 : index
      %y_r = arith.remui %y_p0, %y_m : index
      %y_ri = arith.index_cast %y_r : index to i32
      %y_rf = arith.sitofp %y_ri : i32 to f32
      %y_h = arith.constant 1.0 : f32
      %y_v = arith.subf %y_rf, %y_h : f32
      memref.store %y_v, %y[%y_i0] : memref<?xf32>
    }
  call @kernel(%A, %x, %tmp, %y) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %tmp_zero = arith.constant 0.0 : f32
  %tmp_sum = scf.for %k = %c0 to %m step %c1 iter_args(%a = %tmp_zero) -> f32 {
    %v = memref.load %tmp[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "tmp "
  vector.print %tmp_sum : f32
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
  vector.print str "y "
  vector.print %y_sum : f32
  return
}
