// Reductions over several dimensions, linearised into one (the last
// dimension varying fastest) and mapped, run on the CPU through the
// emulation, print what the original loops print:
// - a 2-D f32 sum over an R x C matrix (upstream's parallel_reduction_2d
//   shape) and a 2-D i32 maximum over odd lower bounds and steps of 2 and 3;
// - a 3-D i64 sum with two results (sum and minimum) over a R x C x 3 block;
// - rows whose reduction is 2-D: out[i] = sum over (j, k) of a[i, j, k];
// for (R, C) in (0, 5), (3, 0), (1, 1), (5, 31), (7, 33), (4, 1000) and
// (2, 5000). Values are small integers, so every sum is exact in any order.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-reductions -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=32 max-blocks=3 unroll=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// RUN: threadbind-opt %s -threadbind-map-reductions="cross-block=atomic max-blocks=2 warp-rows=false" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.atomic
// RUN: diff %t.ref %t.atomic
// The whole pipeline, then the kernels are what the emulation runs.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.pipeline
// RUN: diff %t.ref %t.pipeline
// RUN: threadbind-opt %s -threadbind-map-reductions=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// REMARK: remark: reduces over 2 dimensions: linearised into one, the last varying fastest
// REMARK: remark: reduces over 2 dimensions: linearised into one, the last varying fastest
// REMARK: remark: reduces over 3 dimensions: linearised into one, the last varying fastest
// REMARK: remark: reduces over 2 dimensions: linearised into one, the last varying fastest

// (0, 5): nothing to reduce, the inits: 0.5, -100, 7 and 1000, no rows.
// CHECK: 0.5
// CHECK-NEXT: -100
// CHECK-NEXT: 7
// CHECK-NEXT: 1000
// CHECK-NEXT: 0

// out = 0.5 + sum over (i, j) of m[i, j]
func.func @sum_2d(%m: memref<?x?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  %s = scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) init (%half) -> f32 {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}

// out = max(-100, max over i = 1, 3, ... and j = 2, 5, ... of m[i, j])
func.func @max_2d_strided(%m: memref<?x?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %init = arith.constant -100 : i32
  %r = memref.dim %m, %c0 : memref<?x?xi32>
  %c = memref.dim %m, %c1 : memref<?x?xi32>
  %s = scf.parallel (%i, %j) = (%c1, %c2) to (%r, %c) step (%c2, %c3) init (%init) -> i32 {
    %v = memref.load %m[%i, %j] : memref<?x?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %t = arith.maxsi %a, %b : i32
      scf.reduce.return %t : i32
    }
  }
  memref.store %s, %out[%c0] : memref<1xi32>
  return
}

// out = (7 + sum, min(1000, min)) over (i, j, k) of a[i, j, k]
func.func @sum_min_3d(%a3: memref<?x?x3xi64>, %out: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %seven = arith.constant 7 : i64
  %big = arith.constant 1000 : i64
  %r = memref.dim %a3, %c0 : memref<?x?x3xi64>
  %c = memref.dim %a3, %c1 : memref<?x?x3xi64>
  %s:2 = scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%r, %c, %c3) step (%c1, %c1, %c1) init (%seven, %big) -> (i64, i64) {
    %v = memref.load %a3[%i, %j, %k] : memref<?x?x3xi64>
    scf.reduce(%v, %v : i64, i64) {
    ^bb0(%a: i64, %b: i64):
      %t = arith.addi %a, %b : i64
      scf.reduce.return %t : i64
    }, {
    ^bb0(%a: i64, %b: i64):
      %t = arith.minsi %a, %b : i64
      scf.reduce.return %t : i64
    }
  }
  memref.store %s#0, %out[%c0] : memref<2xi64>
  memref.store %s#1, %out[%c1] : memref<2xi64>
  return
}

// out[i] = 0.25 + sum over (j, k) of a[i, j, k]
func.func @row_sums_2d(%a3: memref<?x?x3xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %quarter = arith.constant 0.25 : f32
  %r = memref.dim %a3, %c0 : memref<?x?x3xf32>
  %c = memref.dim %a3, %c1 : memref<?x?x3xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j, %k) = (%c0, %c0) to (%c, %c3) step (%c1, %c1) init (%quarter) -> f32 {
      %v = memref.load %a3[%i, %j, %k] : memref<?x?x3xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

func.func @check(%r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c6 = arith.constant 6 : index
  %m = memref.alloc(%r, %c) : memref<?x?xf32>
  %mi = memref.alloc(%r, %c) : memref<?x?xi32>
  %a3 = memref.alloc(%r, %c) : memref<?x?x3xi64>
  %f3 = memref.alloc(%r, %c) : memref<?x?x3xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      // (7 i + j) mod 13 - 6, and (7 i + j + k) mod 13 - 6 in 3-D
      %a = arith.muli %i, %c7 : index
      %b = arith.addi %a, %j : index
      %m13 = arith.remui %b, %c13 : index
      %v = arith.subi %m13, %c6 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %m[%i, %j] : memref<?x?xf32>
      memref.store %vi, %mi[%i, %j] : memref<?x?xi32>
      scf.for %k = %c0 to %c3 step %c1 {
        %bk = arith.addi %b, %k : index
        %k13 = arith.remui %bk, %c13 : index
        %w = arith.subi %k13, %c6 : index
        %wi = arith.index_cast %w : index to i64
        %wf = arith.sitofp %wi : i64 to f32
        memref.store %wi, %a3[%i, %j, %k] : memref<?x?x3xi64>
        memref.store %wf, %f3[%i, %j, %k] : memref<?x?x3xf32>
      }
    }
  }
  %o = memref.alloc() : memref<1xf32>
  %oi = memref.alloc() : memref<1xi32>
  %o2 = memref.alloc() : memref<2xi64>
  %rows = memref.alloc(%r) : memref<?xf32>
  call @sum_2d(%m, %o) : (memref<?x?xf32>, memref<1xf32>) -> ()
  call @max_2d_strided(%mi, %oi) : (memref<?x?xi32>, memref<1xi32>) -> ()
  call @sum_min_3d(%a3, %o2) : (memref<?x?x3xi64>, memref<2xi64>) -> ()
  call @row_sums_2d(%f3, %rows) : (memref<?x?x3xf32>, memref<?xf32>) -> ()
  %s = memref.load %o[%c0] : memref<1xf32>
  %mx = memref.load %oi[%c0] : memref<1xi32>
  %s3 = memref.load %o2[%c0] : memref<2xi64>
  %m3 = memref.load %o2[%c1] : memref<2xi64>
  %zero = arith.constant 0.0 : f32
  %tr = scf.for %i = %c0 to %r step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %rows[%i] : memref<?xf32>
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  }
  vector.print %s : f32
  vector.print %mx : i32
  vector.print %s3 : i64
  vector.print %m3 : i64
  vector.print %tr : f32
  memref.dealloc %m : memref<?x?xf32>
  memref.dealloc %mi : memref<?x?xi32>
  memref.dealloc %a3 : memref<?x?x3xi64>
  memref.dealloc %f3 : memref<?x?x3xf32>
  memref.dealloc %o : memref<1xf32>
  memref.dealloc %oi : memref<1xi32>
  memref.dealloc %o2 : memref<2xi64>
  memref.dealloc %rows : memref<?xf32>
  return
}

func.func @main() {
  %shapes = memref.get_global @shapes : memref<7x2xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %k = %c0 to %c7 step %c1 {
    %r = memref.load %shapes[%k, %c0] : memref<7x2xindex>
    %c = memref.load %shapes[%k, %c1] : memref<7x2xindex>
    func.call @check(%r, %c) : (index, index) -> ()
  }
  return
}

memref.global "private" constant @shapes : memref<7x2xindex> =
    dense<[[0, 5], [3, 0], [1, 1], [5, 31], [7, 33], [4, 1000], [2, 5000]]>
