// PolyBench trisolv: forward substitution, L x = b for a lower triangular L.
// Source: PolyBench/C 4.2, linear-algebra/solvers/trisolv (kernel_trisolv)
// Translated to MLIR by hand as a user writes it: a host scf.for over the rows i (x[i] needs every earlier x), in it the sum over j < i as an scf.for with iter_args (a reduction) and the division stored from the host loop.
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
// CHECK: x 
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048 --shape 2=2048 --input 0=@diagdom

func.func @kernel(%L: memref<?x?xf32>, %b: memref<?xf32>, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %L, %c0 : memref<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %s = scf.for %j = %c0 to %i step %c1 iter_args(%acc = %zero) -> f32 {
      %l = memref.load %L[%i, %j] : memref<?x?xf32>
      %v = memref.load %x[%j] : memref<?xf32>
      %p = arith.mulf %l, %v : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    %bi = memref.load %b[%i] : memref<?xf32>
    %d = arith.subf %bi, %s : f32
    %lii = memref.load %L[%i, %i] : memref<?x?xf32>
    %xi = arith.divf %d, %lii : f32
    memref.store %xi, %x[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 29 : index
  %L = memref.alloc(%n, %n) : memref<?x?xf32>
  scf.for %L_i0 = %c0 to %n step %c1 {
    scf.for %L_i1 = %c0 to %n step %c1 {
      %L_w0 = arith.constant 3 : index
      %L_p0 = arith.muli %L_i0, %L_w0 : index
      %L_w1 = arith.constant 5 : index
      %L_p1 = arith.muli %L_i1, %L_w1 : index
      %L_s1 = arith.addi %L_p0, %L_p1 : index
      %L_m = arith.constant 5 : index
      %L_r = arith.remui %L_s1, %L_m : index
      %L_ri = arith.index_cast %L_r : index to i32
      %L_rf = arith.sitofp %L_ri : i32 to f32
      %L_h = arith.constant 2.0 : f32
      %L_o = arith.subf %L_rf, %L_h : f32
      %L_eq = arith.cmpi eq, %L_i0, %L_i1 : index
      %L_dg = arith.constant 64.0 : f32
      %L_z = arith.constant 0.0 : f32
      %L_d = arith.select %L_eq, %L_dg, %L_z : f32
      %L_v = arith.addf %L_o, %L_d : f32
      memref.store %L_v, %L[%L_i0, %L_i1] : memref<?x?xf32>
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
  call @kernel(%L, %b, %x) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
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
    scf.yield %sum : f32
  }
  %x_scale = arith.constant 1000.0 : f32
  %x_scaled = arith.mulf %x_sum, %x_scale : f32
  %x_round = math.roundeven %x_scaled : f32
  vector.print str "x "
  vector.print %x_round : f32
  return
}
