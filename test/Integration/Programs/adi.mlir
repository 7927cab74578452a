// PolyBench adi: alternating direction implicit solver, a column sweep then a row sweep a step.
// Source: PolyBench/C 4.2, stencils/adi (kernel_adi)
// Translated to MLIR by hand as a user writes it: a host scf.for over time; each sweep an scf.parallel across columns (rows) with the forward elimination and the back substitution along each as scf.for.
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
// CHECK: u 
// CHECK: v 
// BUNDLE: --entry kernel --shape 0=1000x1000 --shape 1=1000x1000 --shape 2=1000x1000 --shape 3=1000x1000 --scalar 4=10

func.func @kernel(%u: memref<?x?xf32>, %v: memref<?x?xf32>, %p: memref<?x?xf32>, %q: memref<?x?xf32>, %tsteps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %n = memref.dim %u, %c0 : memref<?x?xf32>
  %n1 = arith.subi %n, %c1 : index
  %ni = arith.index_cast %n : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  %ti = arith.index_cast %tsteps : index to i32
  %tf = arith.sitofp %ti : i32 to f32
  // DX = DY = 1/N, DT = 1/TSTEPS, B1 = 2, B2 = 1.
  %dx = arith.divf %one, %nf : f32
  %dt = arith.divf %one, %tf : f32
  %dx2 = arith.mulf %dx, %dx : f32
  %b1dt = arith.mulf %two, %dt : f32
  %mul1 = arith.divf %b1dt, %dx2 : f32
  %mul2 = arith.divf %dt, %dx2 : f32
  %hm1 = arith.mulf %mul1, %half : f32
  %a = arith.negf %hm1 : f32
  %b = arith.addf %one, %mul1 : f32
  %c = arith.negf %hm1 : f32
  %hm2 = arith.mulf %mul2, %half : f32
  %d = arith.negf %hm2 : f32
  %e = arith.addf %one, %mul2 : f32
  %f = arith.negf %hm2 : f32
  %nc = arith.negf %c : f32
  %nf_ = arith.negf %f : f32
  %nd = arith.negf %d : f32
  %na = arith.negf %a : f32
  %d2 = arith.mulf %two, %d : f32
  %dc = arith.addf %one, %d2 : f32
  %a2 = arith.mulf %two, %a : f32
  %ac = arith.addf %one, %a2 : f32
  scf.for %t = %c0 to %tsteps step %c1 {
    // Column sweep: v from u, sequential down each column i.
    scf.parallel (%i) = (%c1) to (%n1) step (%c1) {
      memref.store %one, %v[%c0, %i] : memref<?x?xf32>
      memref.store %zero, %p[%i, %c0] : memref<?x?xf32>
      %y0 = memref.load %v[%c0, %i] : memref<?x?xf32>
      memref.store %y0, %q[%i, %c0] : memref<?x?xf32>
      scf.for %j = %c1 to %n1 step %c1 {
        %jm = arith.subi %j, %c1 : index
        %pm = memref.load %p[%i, %jm] : memref<?x?xf32>
        %ap = arith.mulf %a, %pm : f32
        %den = arith.addf %ap, %b : f32
        %pv = arith.divf %nc, %den : f32
        memref.store %pv, %p[%i, %j] : memref<?x?xf32>
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %x0 = memref.load %u[%j, %im] : memref<?x?xf32>
        %x1 = memref.load %u[%j, %i] : memref<?x?xf32>
        %x2 = memref.load %u[%j, %ip] : memref<?x?xf32>
        %qm = memref.load %q[%i, %jm] : memref<?x?xf32>
        %t0 = arith.mulf %nd, %x0 : f32
        %t1 = arith.mulf %dc, %x1 : f32
        %t2 = arith.mulf %f, %x2 : f32
        %t3 = arith.mulf %a, %qm : f32
        %s0 = arith.addf %t0, %t1 : f32
        %s1 = arith.subf %s0, %t2 : f32
        %s2 = arith.subf %s1, %t3 : f32
        %qv = arith.divf %s2, %den : f32
        memref.store %qv, %q[%i, %j] : memref<?x?xf32>
      }
      memref.store %one, %v[%n1, %i] : memref<?x?xf32>
      // Back substitution, j from n-2 down to 1.
      scf.for %k = %c1 to %n1 step %c1 {
        %j = arith.subi %n1, %k : index
        %jp = arith.addi %j, %c1 : index
        %pv = memref.load %p[%i, %j] : memref<?x?xf32>
        %yn = memref.load %v[%jp, %i] : memref<?x?xf32>
        %qv = memref.load %q[%i, %j] : memref<?x?xf32>
        %m = arith.mulf %pv, %yn : f32
        %y = arith.addf %m, %qv : f32
        memref.store %y, %v[%j, %i] : memref<?x?xf32>
      }
    }

    // Row sweep: u from v, sequential along each row i.
    scf.parallel (%i) = (%c1) to (%n1) step (%c1) {
      memref.store %one, %u[%i, %c0] : memref<?x?xf32>
      memref.store %zero, %p[%i, %c0] : memref<?x?xf32>
      %y0 = memref.load %u[%i, %c0] : memref<?x?xf32>
      memref.store %y0, %q[%i, %c0] : memref<?x?xf32>
      scf.for %j = %c1 to %n1 step %c1 {
        %jm = arith.subi %j, %c1 : index
        %pm = memref.load %p[%i, %jm] : memref<?x?xf32>
        %ap = arith.mulf %d, %pm : f32
        %den = arith.addf %ap, %e : f32
        %pv = arith.divf %nf_, %den : f32
        memref.store %pv, %p[%i, %j] : memref<?x?xf32>
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %x0 = memref.load %v[%im, %j] : memref<?x?xf32>
        %x1 = memref.load %v[%i, %j] : memref<?x?xf32>
        %x2 = memref.load %v[%ip, %j] : memref<?x?xf32>
        %qm = memref.load %q[%i, %jm] : memref<?x?xf32>
        %t0 = arith.mulf %na, %x0 : f32
        %t1 = arith.mulf %ac, %x1 : f32
        %t2 = arith.mulf %c, %x2 : f32
        %t3 = arith.mulf %d, %qm : f32
        %s0 = arith.addf %t0, %t1 : f32
        %s1 = arith.subf %s0, %t2 : f32
        %s2 = arith.subf %s1, %t3 : f32
        %qv = arith.divf %s2, %den : f32
        memref.store %qv, %q[%i, %j] : memref<?x?xf32>
      }
      memref.store %one, %u[%i, %n1] : memref<?x?xf32>
      // Back substitution, j from n-2 down to 1.
      scf.for %k = %c1 to %n1 step %c1 {
        %j = arith.subi %n1, %k : index
        %jp = arith.addi %j, %c1 : index
        %pv = memref.load %p[%i, %j] : memref<?x?xf32>
        %yn = memref.load %u[%i, %jp] : memref<?x?xf32>
        %qv = memref.load %q[%i, %j] : memref<?x?xf32>
        %m = arith.mulf %pv, %yn : f32
        %y = arith.addf %m, %qv : f32
        memref.store %y, %u[%i, %j] : memref<?x?xf32>
      }
    }

  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 23 : index
  %u = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %u_i0 = %c0 to %n step %c1 {
      scf.for %u_i1 = %c0 to %n step %c1 {
        %u_w0 = arith.constant 3 : index
        %u_p0 = arith.muli %u_i0, %u_w0 : index
        %u_w1 = arith.constant 5 : index
        %u_p1 = arith.muli %u_i1, %u_w1 : index
        %u_s1 = arith.addi %u_p0, %u_p1 : index
        %u_m = arith.constant 5 : index
        %u_r = arith.remui %u_s1, %u_m : index
        %u_ri = arith.index_cast %u_r : index to i32
        %u_rf = arith.sitofp %u_ri : i32 to f32
        %u_h = arith.constant 2.0 : f32
        %u_v = arith.subf %u_rf, %u_h : f32
        memref.store %u_v, %u[%u_i0, %u_i1] : memref<?x?xf32>
      }
    }
  %v = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %v_i0 = %c0 to %n step %c1 {
      scf.for %v_i1 = %c0 to %n step %c1 {
        %v_w0 = arith.constant 3 : index
        %v_p0 = arith.muli %v_i0, %v_w0 : index
        %v_w1 = arith.constant 5 : index
        %v_p1 = arith.muli %v_i1, %v_w1 : index
        %v_s1 = arith.addi %v_p0, %v_p1 : index
        %v_m = arith.constant 3 : index
        %v_r = arith.remui %v_s1, %v_m : index
        %v_ri = arith.index_cast %v_r : index to i32
        %v_rf = arith.sitofp %v_ri : i32 to f32
        %v_h = arith.constant 1.0 : f32
        %v_v = arith.subf %v_rf, %v_h : f32
        memref.store %v_v, %v[%v_i0, %v_i1] : memref<?x?xf32>
      }
    }
  %p = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %p_i0 = %c0 to %n step %c1 {
      scf.for %p_i1 = %c0 to %n step %c1 {
        %p_w0 = arith.constant 3 : index
        %p_p0 = arith.muli %p_i0, %p_w0 : index
        %p_w1 = arith.constant 5 : index
        %p_p1 = arith.muli %p_i1, %p_w1 : index
        %p_s1 = arith.addi %p_p0, %p_p1 : index
        %p_m = arith.constant 3 : index
        %p_r = arith.remui %p_s1, %p_m : index
        %p_ri = arith.index_cast %p_r : index to i32
        %p_rf = arith.sitofp %p_ri : i32 to f32
        %p_h = arith.constant 1.0 : f32
        %p_v = arith.subf %p_rf, %p_h : f32
        memref.store %p_v, %p[%p_i0, %p_i1] : memref<?x?xf32>
      }
    }
  %q = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %q_i0 = %c0 to %n step %c1 {
      scf.for %q_i1 = %c0 to %n step %c1 {
        %q_w0 = arith.constant 3 : index
        %q_p0 = arith.muli %q_i0, %q_w0 : index
        %q_w1 = arith.constant 5 : index
        %q_p1 = arith.muli %q_i1, %q_w1 : index
        %q_s1 = arith.addi %q_p0, %q_p1 : index
        %q_m = arith.constant 3 : index
        %q_r = arith.remui %q_s1, %q_m : index
        %q_ri = arith.index_cast %q_r : index to i32
        %q_rf = arith.sitofp %q_ri : i32 to f32
        %q_h = arith.constant 1.0 : f32
        %q_v = arith.subf %q_rf, %q_h : f32
        memref.store %q_v, %q[%q_i0, %q_i1] : memref<?x?xf32>
      }
    }
  %steps = arith.constant 3 : index
  call @kernel(%u, %v, %p, %q, %steps) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index) -> ()
  %u_zero = arith.constant 0.0 : f32
  %u_a0 = scf.for %u_k0 = %c0 to %n step %c1 iter_args(%u_c0 = %u_zero) -> f32 {
    %u_a1 = scf.for %u_k1 = %c0 to %n step %c1 iter_args(%u_c1 = %u_c0) -> f32 {
      %u_ld = memref.load %u[%u_k0, %u_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %u_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %u_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %u_ld, %wf : f32
      %sum = arith.addf %u_c1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %u_a1 : f32
  }
  %u_scale = arith.constant 1000.0 : f32
  %u_scaled = arith.mulf %u_a0, %u_scale : f32
  %u_rounded = math.roundeven %u_scaled : f32
  vector.print str "u "
  vector.print %u_rounded : f32
  %v_zero = arith.constant 0.0 : f32
  %v_a0 = scf.for %v_k0 = %c0 to %n step %c1 iter_args(%v_c0 = %v_zero) -> f32 {
    %v_a1 = scf.for %v_k1 = %c0 to %n step %c1 iter_args(%v_c1 = %v_c0) -> f32 {
      %v_ld = memref.load %v[%v_k0, %v_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %v_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %v_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %v_ld, %wf : f32
      %sum = arith.addf %v_c1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %v_a1 : f32
  }
  %v_scale = arith.constant 1000.0 : f32
  %v_scaled = arith.mulf %v_a0, %v_scale : f32
  %v_rounded = math.roundeven %v_scaled : f32
  vector.print str "v "
  vector.print %v_rounded : f32
  return
}
