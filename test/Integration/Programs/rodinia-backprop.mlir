// Rodinia backprop: a layer's forward pass with the sigmoid squash, and the weight update with momentum.
// Source: Rodinia 3.1, backprop (bpnn_layerforward and bpnn_adjust_weights in backprop.c, the CPU forms of bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda)
// Translated to MLIR by hand as a user writes it: layerforward an scf.parallel over the upper units with the weighted sum an scf.for with iter_args; adjust_weights one 2-D scf.parallel over (j, k); each stores the bias unit 1.0 first, as the C does.
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
// CHECK: l2 
// CHECK: conn 
// CHECK: oldw 
// BUNDLE: --entry layerforward --shape 0=65537 --shape 1=17 --shape 2=65537x17
// BUNDLE: --entry adjust_weights --shape 0=17 --shape 1=65537 --shape 2=65537x17 --shape 3=65537x17

// Unit 0 of each layer is the bias. l2[j] = squash(sum_k conn[k][j] l1[k])
// for the units j >= 1 of the upper layer.
func.func @layerforward(%l1: memref<?xf32>, %l2: memref<?xf32>, %conn: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n1 = memref.dim %l1, %c0 : memref<?xf32>
  %n2 = memref.dim %l2, %c0 : memref<?xf32>
  memref.store %one, %l1[%c0] : memref<?xf32>
  scf.parallel (%j) = (%c1) to (%n2) step (%c1) {
    %sum = scf.for %k = %c0 to %n1 step %c1 iter_args(%acc = %zero) -> f32 {
      %w = memref.load %conn[%k, %j] : memref<?x?xf32>
      %x = memref.load %l1[%k] : memref<?xf32>
      %p = arith.mulf %w, %x : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    // squash(x) = 1 / (1 + exp(-x))
    %neg = arith.negf %sum : f32
    %e = math.exp %neg : f32
    %den = arith.addf %one, %e : f32
    %v = arith.divf %one, %den : f32
    memref.store %v, %l2[%j] : memref<?xf32>
  }
  return
}

// w[k][j] += ETA delta[j] ly[k] + MOMENTUM oldw[k][j], the step kept in oldw.
func.func @adjust_weights(%delta: memref<?xf32>, %ly: memref<?xf32>, %w: memref<?x?xf32>, %oldw: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %eta = arith.constant 0.3 : f32
  %momentum = arith.constant 0.3 : f32
  %ndelta = memref.dim %delta, %c0 : memref<?xf32>
  %nly = memref.dim %ly, %c0 : memref<?xf32>
  memref.store %one, %ly[%c0] : memref<?xf32>
  scf.parallel (%j, %k) = (%c1, %c0) to (%ndelta, %nly) step (%c1, %c1) {
    %d = memref.load %delta[%j] : memref<?xf32>
    %y = memref.load %ly[%k] : memref<?xf32>
    %o = memref.load %oldw[%k, %j] : memref<?x?xf32>
    %ed = arith.mulf %eta, %d : f32
    %edy = arith.mulf %ed, %y : f32
    %mo = arith.mulf %momentum, %o : f32
    %dw = arith.addf %edy, %mo : f32
    %wv = memref.load %w[%k, %j] : memref<?x?xf32>
    %nw = arith.addf %wv, %dw : f32
    memref.store %nw, %w[%k, %j] : memref<?x?xf32>
    memref.store %dw, %oldw[%k, %j] : memref<?x?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n1 = arith.constant 37 : index
  %n2 = arith.constant 9 : index
  %l1 = memref.alloc(%n1) : memref<?xf32>
    scf.for %l1_i0 = %c0 to %n1 step %c1 {
      %l1_w0 = arith.constant 3 : index
      %l1_p0 = arith.muli %l1_i0, %l1_w0 : index
      %l1_m = arith.constant 5 : index
      %l1_r = arith.remui %l1_p0, %l1_m : index
      %l1_ri = arith.index_cast %l1_r : index to i32
      %l1_rf = arith.sitofp %l1_ri : i32 to f32
      %l1_h = arith.constant 2.0 : f32
      %l1_v = arith.subf %l1_rf, %l1_h : f32
      memref.store %l1_v, %l1[%l1_i0] : memref<?xf32>
    }
  %l2 = memref.alloc(%n2) : memref<?xf32>
    scf.for %l2_i0 = %c0 to %n2 step %c1 {
      %l2_w0 = arith.constant 3 : index
      %l2_p0 = arith.muli %l2_i0, %l2_w0 : index
      %l2_m = arith.constant 3 : index
      %l2_r = arith.remui %l2_p0, %l2_m : index
      %l2_ri = arith.index_cast %l2_r : index to i32
      %l2_rf = arith.sitofp %l2_ri : i32 to f32
      %l2_h = arith.constant 1.0 : f32
      %l2_v = arith.subf %l2_rf, %l2_h : f32
      memref.store %l2_v, %l2[%l2_i0] : memref<?xf32>
    }
  %conn = memref.alloc(%n1, %n2) : memref<?x?xf32>
    scf.for %conn_i0 = %c0 to %n1 step %c1 {
      scf.for %conn_i1 = %c0 to %n2 step %c1 {
        %conn_w0 = arith.constant 3 : index
        %conn_p0 = arith.muli %conn_i0, %conn_w0 : index
        %conn_w1 = arith.constant 5 : index
        %conn_p1 = arith.muli %conn_i1, %conn_w1 : index
        %conn_s1 = arith.addi %conn_p0, %conn_p1 : index
        %conn_m = arith.constant 3 : index
        %conn_r = arith.remui %conn_s1, %conn_m : index
        %conn_ri = arith.index_cast %conn_r : index to i32
        %conn_rf = arith.sitofp %conn_ri : i32 to f32
        %conn_h = arith.constant 1.0 : f32
        %conn_v = arith.subf %conn_rf, %conn_h : f32
        memref.store %conn_v, %conn[%conn_i0, %conn_i1] : memref<?x?xf32>
      }
    }
  %delta = memref.alloc(%n2) : memref<?xf32>
    scf.for %delta_i0 = %c0 to %n2 step %c1 {
      %delta_w0 = arith.constant 3 : index
      %delta_p0 = arith.muli %delta_i0, %delta_w0 : index
      %delta_m = arith.constant 7 : index
      %delta_r = arith.remui %delta_p0, %delta_m : index
      %delta_ri = arith.index_cast %delta_r : index to i32
      %delta_rf = arith.sitofp %delta_ri : i32 to f32
      %delta_h = arith.constant 3.0 : f32
      %delta_v = arith.subf %delta_rf, %delta_h : f32
      memref.store %delta_v, %delta[%delta_i0] : memref<?xf32>
    }
  %oldw = memref.alloc(%n1, %n2) : memref<?x?xf32>
    scf.for %oldw_i0 = %c0 to %n1 step %c1 {
      scf.for %oldw_i1 = %c0 to %n2 step %c1 {
        %oldw_w0 = arith.constant 3 : index
        %oldw_p0 = arith.muli %oldw_i0, %oldw_w0 : index
        %oldw_w1 = arith.constant 5 : index
        %oldw_p1 = arith.muli %oldw_i1, %oldw_w1 : index
        %oldw_s1 = arith.addi %oldw_p0, %oldw_p1 : index
        %oldw_m = arith.constant 4 : index
        %oldw_r = arith.remui %oldw_s1, %oldw_m : index
        %oldw_ri = arith.index_cast %oldw_r : index to i32
        %oldw_rf = arith.sitofp %oldw_ri : i32 to f32
        %oldw_h = arith.constant 1.0 : f32
        %oldw_v = arith.subf %oldw_rf, %oldw_h : f32
        memref.store %oldw_v, %oldw[%oldw_i0, %oldw_i1] : memref<?x?xf32>
      }
    }
  call @layerforward(%l1, %l2, %conn) : (memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  call @adjust_weights(%delta, %l1, %conn, %oldw) : (memref<?xf32>, memref<?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %l2_zero = arith.constant 0.0 : f32
  %l2_a0 = scf.for %l2_k0 = %c0 to %n2 step %c1 iter_args(%l2_c0 = %l2_zero) -> f32 {
    %l2_ld = memref.load %l2[%l2_k0] : memref<?xf32>
    %q0w = arith.constant 1 : index
    %q0 = arith.muli %l2_k0, %q0w : index
    %c7 = arith.constant 7 : index
    %w = arith.remui %q0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %l2_ld, %wf : f32
    %sum = arith.addf %l2_c0, %prod : f32
    scf.yield %sum : f32
  }
  %l2_scale = arith.constant 1000.0 : f32
  %l2_scaled = arith.mulf %l2_a0, %l2_scale : f32
  %l2_rounded = math.roundeven %l2_scaled : f32
  vector.print str "l2 "
  vector.print %l2_rounded : f32
  %conn_zero = arith.constant 0.0 : f32
  %conn_a0 = scf.for %conn_k0 = %c0 to %n1 step %c1 iter_args(%conn_c0 = %conn_zero) -> f32 {
    %conn_a1 = scf.for %conn_k1 = %c0 to %n2 step %c1 iter_args(%conn_c1 = %conn_c0) -> f32 {
      %conn_ld = memref.load %conn[%conn_k0, %conn_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %conn_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %conn_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %conn_ld, %wf : f32
      %sum = arith.addf %conn_c1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %conn_a1 : f32
  }
  %conn_scale = arith.constant 1000.0 : f32
  %conn_scaled = arith.mulf %conn_a0, %conn_scale : f32
  %conn_rounded = math.roundeven %conn_scaled : f32
  vector.print str "conn "
  vector.print %conn_rounded : f32
  %oldw_zero = arith.constant 0.0 : f32
  %oldw_a0 = scf.for %oldw_k0 = %c0 to %n1 step %c1 iter_args(%oldw_c0 = %oldw_zero) -> f32 {
    %oldw_a1 = scf.for %oldw_k1 = %c0 to %n2 step %c1 iter_args(%oldw_c1 = %oldw_c0) -> f32 {
      %oldw_ld = memref.load %oldw[%oldw_k0, %oldw_k1] : memref<?x?xf32>
      %q0w = arith.constant 1 : index
      %q0 = arith.muli %oldw_k0, %q0w : index
      %q1w = arith.constant 3 : index
      %q1 = arith.muli %oldw_k1, %q1w : index
      %qs1 = arith.addi %q0, %q1 : index
      %c7 = arith.constant 7 : index
      %w = arith.remui %qs1, %c7 : index
      %w1 = arith.addi %w, %c1 : index
      %wi = arith.index_cast %w1 : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %prod = arith.mulf %oldw_ld, %wf : f32
      %sum = arith.addf %oldw_c1, %prod : f32
      scf.yield %sum : f32
    }
    scf.yield %oldw_a1 : f32
  }
  %oldw_scale = arith.constant 1000.0 : f32
  %oldw_scaled = arith.mulf %oldw_a0, %oldw_scale : f32
  %oldw_rounded = math.roundeven %oldw_scaled : f32
  vector.print str "oldw "
  vector.print %oldw_rounded : f32
  return
}
