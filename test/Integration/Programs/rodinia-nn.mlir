// Rodinia nn: the distance of every record to a query point, then the nearest record.
// Source: Rodinia 3.1, nn (euclid in nn_cuda.cu, then the host's search for the nearest record with k = 1)
// Translated to MLIR by hand as a user writes it: an scf.parallel over the records for the distances; the arg-min an scf.for with (distance, index) iter_args as the host writes it.
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
// BOUND-DAG: warning: has no parallel loop, so all of its code that touches memory runs on one GPU thread
// CHECK: dist 
// CHECK: best 
// CHECK: where 
// BUNDLE: --entry euclid --shape 0=4000000x2 --shape 1=4000000 --scalar 2=0.25 --scalar 3=-0.5
// BUNDLE: --entry nearest --shape 0=4000000 --shape 1=1 --shape 2=1

// The distance of every record to the query point (lat, lng).
func.func @euclid(%loc: memref<?x2xf32>, %dist: memref<?xf32>, %lat: f32, %lng: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %loc, %c0 : memref<?x2xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %la = memref.load %loc[%i, %c0] : memref<?x2xf32>
    %lo = memref.load %loc[%i, %c1] : memref<?x2xf32>
    %dla = arith.subf %lat, %la : f32
    %dlo = arith.subf %lng, %lo : f32
    %a = arith.mulf %dla, %dla : f32
    %b = arith.mulf %dlo, %dlo : f32
    %s = arith.addf %a, %b : f32
    %d = math.sqrt %s : f32
    memref.store %d, %dist[%i] : memref<?xf32>
  }
  return
}

// The nearest record: the smallest distance and the first index that has
// it, as the host loop of nn picks it.
func.func @nearest(%dist: memref<?xf32>, %best: memref<1xf32>, %where: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %inf = arith.constant 0x7F800000 : f32
  %none = arith.constant -1 : i32
  %n = memref.dim %dist, %c0 : memref<?xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%bd = %inf, %bi = %none) -> (f32, i32) {
    %d = memref.load %dist[%i] : memref<?xf32>
    %lt = arith.cmpf olt, %d, %bd : f32
    %ii = arith.index_cast %i : index to i32
    %nd = arith.select %lt, %d, %bd : f32
    %ni = arith.select %lt, %ii, %bi : i32
    scf.yield %nd, %ni : f32, i32
  }
  memref.store %r#0, %best[%c0] : memref<1xf32>
  memref.store %r#1, %where[%c0] : memref<1xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 301 : index
  %loc = memref.alloc(%n) : memref<?x2xf32>
  %k2 = arith.constant 2 : index
    scf.for %loc_i0 = %c0 to %n step %c1 {
      scf.for %loc_i1 = %c0 to %k2 step %c1 {
        %loc_w0 = arith.constant 3 : index
        %loc_p0 = arith.muli %loc_i0, %loc_w0 : index
        %loc_w1 = arith.constant 5 : index
        %loc_p1 = arith.muli %loc_i1, %loc_w1 : index
        %loc_s1 = arith.addi %loc_p0, %loc_p1 : index
        %loc_m = arith.constant 7 : index
        %loc_r = arith.remui %loc_s1, %loc_m : index
        %loc_ri = arith.index_cast %loc_r : index to i32
        %loc_rf = arith.sitofp %loc_ri : i32 to f32
        %loc_h = arith.constant 3.0 : f32
        %loc_v = arith.subf %loc_rf, %loc_h : f32
        memref.store %loc_v, %loc[%loc_i0, %loc_i1] : memref<?x2xf32>
      }
    }
  %dist = memref.alloc(%n) : memref<?xf32>
    scf.for %dist_i0 = %c0 to %n step %c1 {
      %dist_w0 = arith.constant 3 : index
      %dist_p0 = arith.muli %dist_i0, %dist_w0 : index
      %dist_m = arith.constant 3 : index
      %dist_r = arith.remui %dist_p0, %dist_m : index
      %dist_ri = arith.index_cast %dist_r : index to i32
      %dist_rf = arith.sitofp %dist_ri : i32 to f32
      %dist_h = arith.constant 1.0 : f32
      %dist_v = arith.subf %dist_rf, %dist_h : f32
      memref.store %dist_v, %dist[%dist_i0] : memref<?xf32>
    }
  %best = memref.alloc() : memref<1xf32>
  %k1 = arith.constant 1 : index
    scf.for %best_i0 = %c0 to %k1 step %c1 {
      %best_w0 = arith.constant 3 : index
      %best_p0 = arith.muli %best_i0, %best_w0 : index
      %best_m = arith.constant 3 : index
      %best_r = arith.remui %best_p0, %best_m : index
      %best_ri = arith.index_cast %best_r : index to i32
      %best_rf = arith.sitofp %best_ri : i32 to f32
      %best_h = arith.constant 1.0 : f32
      %best_v = arith.subf %best_rf, %best_h : f32
      memref.store %best_v, %best[%best_i0] : memref<1xf32>
    }
  %where = memref.alloc() : memref<1xi32>
    scf.for %where_i0 = %c0 to %k1 step %c1 {
      %where_w0 = arith.constant 3 : index
      %where_p0 = arith.muli %where_i0, %where_w0 : index
      %where_m = arith.constant 3 : index
      %where_r = arith.remui %where_p0, %where_m : index
      %where_ri = arith.index_cast %where_r : index to i32
      %where_h = arith.constant 1 : i32
      %where_v = arith.subi %where_ri, %where_h : i32
      memref.store %where_v, %where[%where_i0] : memref<1xi32>
    }
  %lat = arith.constant 0.5 : f32
  %lng = arith.constant -1.5 : f32
  call @euclid(%loc, %dist, %lat, %lng) : (memref<?x2xf32>, memref<?xf32>, f32, f32) -> ()
  call @nearest(%dist, %best, %where) : (memref<?xf32>, memref<1xf32>, memref<1xi32>) -> ()
  %dist_zero = arith.constant 0.0 : f32
  %dist_a0 = scf.for %dist_k0 = %c0 to %n step %c1 iter_args(%dist_c0 = %dist_zero) -> f32 {
    %dist_ld = memref.load %dist[%dist_k0] : memref<?xf32>
    %q0w = arith.constant 1 : index
    %q0 = arith.muli %dist_k0, %q0w : index
    %c7 = arith.constant 7 : index
    %w = arith.remui %q0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %dist_ld, %wf : f32
    %sum = arith.addf %dist_c0, %prod : f32
    scf.yield %sum : f32
  }
  %dist_scale = arith.constant 1000.0 : f32
  %dist_scaled = arith.mulf %dist_a0, %dist_scale : f32
  %dist_rounded = math.roundeven %dist_scaled : f32
  vector.print str "dist "
  vector.print %dist_rounded : f32
  %best_zero = arith.constant 0.0 : f32
  %best_a0 = scf.for %best_k0 = %c0 to %k1 step %c1 iter_args(%best_c0 = %best_zero) -> f32 {
    %best_ld = memref.load %best[%best_k0] : memref<1xf32>
    %q0w = arith.constant 1 : index
    %q0 = arith.muli %best_k0, %q0w : index
    %c7 = arith.constant 7 : index
    %w = arith.remui %q0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %best_ld, %wf : f32
    %sum = arith.addf %best_c0, %prod : f32
    scf.yield %sum : f32
  }
  %best_scale = arith.constant 1000.0 : f32
  %best_scaled = arith.mulf %best_a0, %best_scale : f32
  %best_rounded = math.roundeven %best_scaled : f32
  vector.print str "best "
  vector.print %best_rounded : f32
  %where_zero = arith.constant 0.0 : f32
  %where_a0 = scf.for %where_k0 = %c0 to %k1 step %c1 iter_args(%where_c0 = %where_zero) -> f32 {
    %where_ld = memref.load %where[%where_k0] : memref<1xi32>
    %where_ldf = arith.sitofp %where_ld : i32 to f32
    %q0w = arith.constant 1 : index
    %q0 = arith.muli %where_k0, %q0w : index
    %c7 = arith.constant 7 : index
    %w = arith.remui %q0, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %prod = arith.mulf %where_ldf, %wf : f32
    %sum = arith.addf %where_c0, %prod : f32
    scf.yield %sum : f32
  }
  vector.print str "where "
  vector.print %where_a0 : f32
  return
}
