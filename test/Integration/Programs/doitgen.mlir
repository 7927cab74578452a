// PolyBench doitgen: A[r][q][:] = A[r][q][:] C4, a matrix product per (r, q).
// Source: PolyBench/C 4.2, linear-algebra/kernels/doitgen (kernel_doitgen), with PolyBench/GPU's per-(r, q) scratch sum[r][q][p]
// Translated to MLIR by hand as a user writes it: an scf.parallel over (r, q) holding two sibling scf.parallel loops over p that communicate through the scratch sum[r][q][:], the sum over s in an scf.for with iter_args.
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
// BOUND-DAG: remark: one block per outer iteration
// CHECK: A 
// CHECK: sum 
// BUNDLE: --entry kernel --shape 0=150x140x160 --shape 1=160x160 --shape 2=150x140x160

func.func @kernel(%A: memref<?x?x?xf32>, %C4: memref<?x?xf32>, %sum: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %nr = memref.dim %A, %c0 : memref<?x?x?xf32>
  %nq = memref.dim %A, %c1 : memref<?x?x?xf32>
  %np = memref.dim %A, %c2 : memref<?x?x?xf32>
  scf.parallel (%r, %q) = (%c0, %c0) to (%nr, %nq) step (%c1, %c1) {
    // sum[r][q][p] = sum_s A[r][q][s] C4[s][p]
    scf.parallel (%p) = (%c0) to (%np) step (%c1) {
      %t = scf.for %s = %c0 to %np step %c1 iter_args(%acc = %zero) -> f32 {
        %a = memref.load %A[%r, %q, %s] : memref<?x?x?xf32>
        %b = memref.load %C4[%s, %p] : memref<?x?xf32>
        %m = arith.mulf %a, %b : f32
        %u = arith.addf %acc, %m : f32
        scf.yield %u : f32
      }
      memref.store %t, %sum[%r, %q, %p] : memref<?x?x?xf32>
    }
    // A[r][q][p] = sum[r][q][p], only once every p has read the row A[r][q][:]
    scf.parallel (%p) = (%c0) to (%np) step (%c1) {
      %v = memref.load %sum[%r, %q, %p] : memref<?x?x?xf32>
      memref.store %v, %A[%r, %q, %p] : memref<?x?x?xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nr = arith.constant 7 : index
  %nq = arith.constant 9 : index
  %np = arith.constant 11 : index
  %A = memref.alloc(%nr, %nq, %np) : memref<?x?x?xf32>
  scf.for %A_i0 = %c0 to %nr step %c1 {
    scf.for %A_i1 = %c0 to %nq step %c1 {
      scf.for %A_i2 = %c0 to %np step %c1 {
        %A_w0 = arith.constant 7 : index
        %A_p0 = arith.muli %A_i0, %A_w0 : index
        %A_w1 = arith.constant 11 : index
        %A_p1 = arith.muli %A_i1, %A_w1 : index
        %A_s1 = arith.addi %A_p0, %A_p1 : index
        %A_x1 = arith.muli %A_i0, %A_i1 : index
        %A_y1 = arith.addi %A_s1, %A_x1 : index
        %A_w2 = arith.constant 13 : index
        %A_p2 = arith.muli %A_i2, %A_w2 : index
        %A_s2 = arith.addi %A_y1, %A_p2 : index
        %A_x2 = arith.muli %A_i1, %A_i2 : index
        %A_y2 = arith.addi %A_s2, %A_x2 : index
        %A_m = arith.constant 5 : index
        %A_r = arith.remui %A_y2, %A_m : index
        %A_ri = arith.index_cast %A_r : index to i32
        %A_rf = arith.sitofp %A_ri : i32 to f32
        %A_h = arith.constant 2.0 : f32
        %A_v = arith.subf %A_rf, %A_h : f32
        memref.store %A_v, %A[%A_i0, %A_i1, %A_i2] : memref<?x?x?xf32>
      }
    }
  }
  %C4 = memref.alloc(%np, %np) : memref<?x?xf32>
  scf.for %C4_i0 = %c0 to %np step %c1 {
    scf.for %C4_i1 = %c0 to %np step %c1 {
      %C4_w0 = arith.constant 7 : index
      %C4_p0 = arith.muli %C4_i0, %C4_w0 : index
      %C4_w1 = arith.constant 11 : index
      %C4_p1 = arith.muli %C4_i1, %C4_w1 : index
      %C4_s1 = arith.addi %C4_p0, %C4_p1 : index
      %C4_x1 = arith.muli %C4_i0, %C4_i1 : index
      %C4_y1 = arith.addi %C4_s1, %C4_x1 : index
      %C4_m = arith.constant 3 : index
      %C4_r = arith.remui %C4_y1, %C4_m : index
      %C4_ri = arith.index_cast %C4_r : index to i32
      %C4_rf = arith.sitofp %C4_ri : i32 to f32
      %C4_h = arith.constant 1.0 : f32
      %C4_v = arith.subf %C4_rf, %C4_h : f32
      memref.store %C4_v, %C4[%C4_i0, %C4_i1] : memref<?x?xf32>
    }
  }
  %sum = memref.alloc(%nr, %nq, %np) : memref<?x?x?xf32>
  scf.for %sum_i0 = %c0 to %nr step %c1 {
    scf.for %sum_i1 = %c0 to %nq step %c1 {
      scf.for %sum_i2 = %c0 to %np step %c1 {
        %sum_w0 = arith.constant 7 : index
        %sum_p0 = arith.muli %sum_i0, %sum_w0 : index
        %sum_w1 = arith.constant 11 : index
        %sum_p1 = arith.muli %sum_i1, %sum_w1 : index
        %sum_s1 = arith.addi %sum_p0, %sum_p1 : index
        %sum_x1 = arith.muli %sum_i0, %sum_i1 : index
        %sum_y1 = arith.addi %sum_s1, %sum_x1 : index
        %sum_w2 = arith.constant 13 : index
        %sum_p2 = arith.muli %sum_i2, %sum_w2 : index
        %sum_s2 = arith.addi %sum_y1, %sum_p2 : index
        %sum_x2 = arith.muli %sum_i1, %sum_i2 : index
        %sum_y2 = arith.addi %sum_s2, %sum_x2 : index
        %sum_m = arith.constant 3 : index
        %sum_r = arith.remui %sum_y2, %sum_m : index
        %sum_ri = arith.index_cast %sum_r : index to i32
        %sum_rf = arith.sitofp %sum_ri : i32 to f32
        %sum_h = arith.constant 1.0 : f32
        %sum_v = arith.subf %sum_rf, %sum_h : f32
        memref.store %sum_v, %sum[%sum_i0, %sum_i1, %sum_i2] : memref<?x?x?xf32>
      }
    }
  }
  call @kernel(%A, %C4, %sum) : (memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) -> ()
  %A_zero = arith.constant 0.0 : f32
  %A_sum = scf.for %A_k0 = %c0 to %nr step %c1 iter_args(%A_a0 = %A_zero) -> f32 {
    %A_t1 = scf.for %A_k1 = %c0 to %nq step %c1 iter_args(%A_a1 = %A_a0) -> f32 {
      %A_t2 = scf.for %A_k2 = %c0 to %np step %c1 iter_args(%A_a2 = %A_a1) -> f32 {
        %A_cv = memref.load %A[%A_k0, %A_k1, %A_k2] : memref<?x?x?xf32>
        %A_f1 = arith.constant 2 : index
        %A_g1 = arith.muli %A_k1, %A_f1 : index
        %A_h1 = arith.addi %A_k0, %A_g1 : index
        %A_f2 = arith.constant 3 : index
        %A_g2 = arith.muli %A_k2, %A_f2 : index
        %A_h2 = arith.addi %A_h1, %A_g2 : index
        %A_c7 = arith.constant 7 : index
        %A_cw = arith.remui %A_h2, %A_c7 : index
        %A_cw1 = arith.addi %A_cw, %c1 : index
        %A_cwi = arith.index_cast %A_cw1 : index to i32
        %A_cwf = arith.sitofp %A_cwi : i32 to f32
        %A_prod = arith.mulf %A_cv, %A_cwf : f32
        %A_csum = arith.addf %A_a2, %A_prod : f32
        scf.yield %A_csum : f32
      }
      scf.yield %A_t2 : f32
    }
    scf.yield %A_t1 : f32
  }
  vector.print str "A "
  vector.print %A_sum : f32
  %sum_zero = arith.constant 0.0 : f32
  %sum_sum = scf.for %sum_k0 = %c0 to %nr step %c1 iter_args(%sum_a0 = %sum_zero) -> f32 {
    %sum_t1 = scf.for %sum_k1 = %c0 to %nq step %c1 iter_args(%sum_a1 = %sum_a0) -> f32 {
      %sum_t2 = scf.for %sum_k2 = %c0 to %np step %c1 iter_args(%sum_a2 = %sum_a1) -> f32 {
        %sum_cv = memref.load %sum[%sum_k0, %sum_k1, %sum_k2] : memref<?x?x?xf32>
        %sum_f1 = arith.constant 2 : index
        %sum_g1 = arith.muli %sum_k1, %sum_f1 : index
        %sum_h1 = arith.addi %sum_k0, %sum_g1 : index
        %sum_f2 = arith.constant 3 : index
        %sum_g2 = arith.muli %sum_k2, %sum_f2 : index
        %sum_h2 = arith.addi %sum_h1, %sum_g2 : index
        %sum_c7 = arith.constant 7 : index
        %sum_cw = arith.remui %sum_h2, %sum_c7 : index
        %sum_cw1 = arith.addi %sum_cw, %c1 : index
        %sum_cwi = arith.index_cast %sum_cw1 : index to i32
        %sum_cwf = arith.sitofp %sum_cwi : i32 to f32
        %sum_prod = arith.mulf %sum_cv, %sum_cwf : f32
        %sum_csum = arith.addf %sum_a2, %sum_prod : f32
        scf.yield %sum_csum : f32
      }
      scf.yield %sum_t2 : f32
    }
    scf.yield %sum_t1 : f32
  }
  vector.print str "sum "
  vector.print %sum_sum : f32
  return
}
