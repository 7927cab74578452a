// PolyBench bicg: s = A^T r and q = A p, the BiCG sub-kernel.
// Source: PolyBench/C 4.2, linear-algebra/kernels/bicg (kernel_bicg), as PolyBench/GPU's two kernels
// Translated to MLIR by hand as a user writes it: linalg.matvec for q, an scf.parallel over columns with an iter_args sum for s.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner
// BUNDLE: --entry kernel --shape 0=4096x4096 --shape 1=4096 --shape 2=4096 --shape 3=4096 --shape 4=4096

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
// BOUND-DAG: remark: row reduction mapped
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: s 
// CHECK: q 

func.func @kernel(%A: memref<?x?xf32>, %r: memref<?xf32>, %p: memref<?xf32>, %s: memref<?xf32>, %q: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %t = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %r[%i] : memref<?xf32>
      %b = memref.load %A[%i, %j] : memref<?x?xf32>
      %u = arith.mulf %a, %b : f32
      %v = arith.addf %acc, %u : f32
      scf.yield %v : f32
    }
    memref.store %t, %s[%j] : memref<?xf32>
  }
  linalg.fill ins(%zero : f32) outs(%q : memref<?xf32>)
  linalg.matvec ins(%A, %p : memref<?x?xf32>, memref<?xf32>) outs(%q : memref<?xf32>)
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
  %r = memref.alloc(%m) : memref<?xf32>
    scf.for %r_i0 = %c0 to %m step %c1 {
      %r_w0 = arith.constant 7 : index
      %r_p0 = arith.muli %r_i0, %r_w0 : index
      %r_m = arith.constant 4 : index
      %r_r = arith.remui %r_p0, %r_m : index
      %r_ri = arith.index_cast %r_r : index to i32
      %r_rf = arith.sitofp %r_ri : i32 to f32
      %r_h = arith.constant 2.0 : f32
      %r_v = arith.subf %r_rf, %r_h : f32
      memref.store %r_v, %r[%r_i0] : memref<?xf32>
    }
  %p = memref.alloc(%n) : memref<?xf32>
    scf.for %p_i0 = %c0 to %n step %c1 {
      %p_w0 = arith.constant 7 : index
      %p_p0 = arith.muli %p_i0, %p_w0 : index
      %p_m = arith.constant 3 : index
      %p_r = arith.remui %p_p0, %p_m : index
      %p_ri = arith.index_cast %p_r : index to i32
      %p_rf = arith.sitofp %p_ri : i32 to f32
      %p_h = arith.constant 1.0 : f32
      %p_v = arith.subf %p_rf, %p_h : f32
      memref.store %p_v, %p[%p_i0] : memref<?xf32>
    }
  %s = memref.alloc(%n) : memref<?xf32>
    scf.for %s_i0 = %c0 to %n step %c1 {
      %s_w0 = arith.constant 7 : index
      %s_p0 = arith.muli %s_i0, %s_w0 : index
      %s_m = arith.constant 3 : index
      %s_r = arith.remui %s_p0, %s_m : index
      %s_ri = arith.index_cast %s_r : index to i32
      %s_rf = arith.sitofp %s_ri : i32 to f32
      %s_h = arith.constant 1.0 : f32
      %s_v = arith.subf %s_rf, %s_h : f32
      memref.store %s_v, %s[%s_i0] : memref<?xf32>
    }
  %q = memref.alloc(%m) : memref<?xf32>
    scf.for %q_i0 = %c0 to %m step %c1 {
      %q_w0 = arith.constant 7 : index
      %q_p0 = arith.muli %q_i0, %q_w0 : index
      %q_m = arith.constant 3 : index
      %q_r = arith.remui %q_p0, %q_m : index
      %q_ri = arith.index_cast %q_r : index to i32
      %q_rf = arith.sitofp %q_ri : i32 to f32
      %q_h = arith.constant 1.0 : f32
      %q_v = arith.subf %q_rf, %q_h : f32
      memref.store %q_v, %q[%q_i0] : memref<?xf32>
    }
  call @kernel(%A, %r, %p, %s, %q) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %s_zero = arith.constant 0.0 : f32
  %s_sum = scf.for %k = %c0 to %n step %c1 iter_args(%a = %s_zero) -> f32 {
    %v = memref.load %s[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "s "
  vector.print %s_sum : f32
  %q_zero = arith.constant 0.0 : f32
  %q_sum = scf.for %k = %c0 to %m step %c1 iter_args(%a = %q_zero) -> f32 {
    %v = memref.load %q[%k] : memref<?xf32>
    %c7 = arith.constant 7 : index
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %v, %wf : f32
    %sum = arith.addf %a, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "q "
  vector.print %q_sum : f32
  return
}
