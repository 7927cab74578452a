// Reduction results used by more than stores: the pure ops the host code
// computes from them (with values from before the loop, and constants from
// after it) move into the reduction's last kernel with the stores. Mapped
// and run on the CPU through the emulation, every function prints what the
// loops as written print:
// - what upstream's -affine-parallelize='parallel-reductions=1' emits for
//   a sum in an affine.for with iter_args: the reduction, then
//   `arith.addf %init, %red`, then the store;
// - the norm of a vector, sqrt(sum of squares), as PolyBench gramschmidt
//   takes it;
// - a mean and a range from three results (sum, max, min) combined;
// - per row, the mean and the norm of the row, both stored;
// - per row, a sum of the row less a value loaded before the reduction
//   (as softmax loads the row's maximum), still mapped a row to a block.
// Values are small integers, so every sum is exact in any order.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=32 max-blocks=3 reduction-unroll=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// RUN: threadbind-opt %s -threadbind-map-to-gpu="reduction-cross-block=atomic reduction-warp-rows=false" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.atomic
// RUN: diff %t.ref %t.atomic
// No loop is left on the host, and nothing is refused.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED

// MAPPED-LABEL: func.func @affine_sum
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @norm
// MAPPED: gpu.launch
// MAPPED: math.sqrt
// MAPPED-LABEL: func.func @mean_and_range
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @row_stats
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @row_centered
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @check
// RUN: threadbind-opt %s -threadbind-map-reductions=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-2: remark: row reduction mapped

// n = 0: the inits alone (0.5; sqrt(0) = 0; mean of nothing is 0/0, which
// prints as nan, and the range is max - min of the inits, -1000 - 1000).
// CHECK: 0.5
// CHECK-NEXT: 0
// CHECK-NEXT: nan
// CHECK-NEXT: -2000
// CHECK-NEXT: 0

func.func @affine_sum(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 5.000000e-01 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %0 = affine.parallel (%i) = (0) to (symbol(%n)) reduce ("addf") -> (f32) {
    %v = affine.load %x[%i] : memref<?xf32>
    affine.yield %v : f32
  }
  %1 = arith.addf %cst, %0 : f32
  affine.store %1, %out[0] : memref<1xf32>
  return
}

func.func @norm(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %sq = arith.mulf %v, %v : f64
    scf.reduce(%sq : f64) {
    ^bb0(%a: f64, %b: f64):
      %t = arith.addf %a, %b : f64
      scf.reduce.return %t : f64
    }
  }
  %r = math.sqrt %s : f64
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

// out[0] = 2 * sum / n, out[1] = max - min (inits -1000 and 1000).
func.func @mean_and_range(%x: memref<?xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant -1000.0 : f32
  %hi = arith.constant 1000.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %ni = arith.index_cast %n : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  %s:3 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero, %lo, %hi) -> (f32, f32, f32) {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v, %v, %v : f32, f32, f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }, {
    ^bb0(%a: f32, %b: f32):
      %t = arith.maximumf %a, %b : f32
      scf.reduce.return %t : f32
    }, {
    ^bb0(%a: f32, %b: f32):
      %t = arith.minimumf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  %two = arith.constant 2.0 : f32
  %mean = arith.divf %s#0, %nf : f32
  %twice = arith.mulf %mean, %two : f32
  %range = arith.subf %s#1, %s#2 : f32
  memref.store %twice, %out[%c0] : memref<2xf32>
  memref.store %range, %out[%c1] : memref<2xf32>
  return
}

// mean[i] = sum of row i / C; norm[i] = sqrt(0.5 + sum of its squares).
func.func @row_stats(%m: memref<?x?xf32>, %mean: memref<?xf32>, %norm: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  %ci = arith.index_cast %c : index to i32
  %cf = arith.sitofp %ci : i32 to f32
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s:2 = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%zero, %half) -> (f32, f32) {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %sq = arith.mulf %v, %v : f32
      scf.reduce(%v, %sq : f32, f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }, {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    %mu = arith.divf %s#0, %cf : f32
    %nr = math.sqrt %s#1 : f32
    memref.store %mu, %mean[%i] : memref<?xf32>
    memref.store %nr, %norm[%i] : memref<?xf32>
  }
  return
}

// out[i] = sum over j of (m[i, j] - mu[i])
func.func @row_centered(%m: memref<?x?xf32>, %mu: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %center = memref.load %mu[%i] : memref<?xf32>
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %d = arith.subf %v, %center : f32
      scf.reduce(%d : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c13 = arith.constant 13 : index
  %c6 = arith.constant 6 : index
  %x = memref.alloc(%n) : memref<?xf32>
  %xd = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    // 14 i mod 13 - 6, that is i mod 13 - 6
    %a = arith.muli %i, %c13 : index
    %b = arith.addi %a, %i : index
    %m13 = arith.remui %b, %c13 : index
    %v = arith.subi %m13, %c6 : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %vd = arith.sitofp %vi : i32 to f64
    memref.store %vf, %x[%i] : memref<?xf32>
    memref.store %vd, %xd[%i] : memref<?xf64>
  }
  %o1 = memref.alloc() : memref<1xf32>
  %o2 = memref.alloc() : memref<1xf64>
  %o3 = memref.alloc() : memref<2xf32>
  call @affine_sum(%x, %o1) : (memref<?xf32>, memref<1xf32>) -> ()
  call @norm(%xd, %o2) : (memref<?xf64>, memref<1xf64>) -> ()
  call @mean_and_range(%x, %o3) : (memref<?xf32>, memref<2xf32>) -> ()
  // The rows: n / 3 rows of 3 (the same values).
  %rows = arith.divui %n, %c3 : index
  %used = arith.muli %rows, %c3 : index
  %mat = memref.alloc(%rows) : memref<?x3xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %k0 = arith.muli %i, %c3 : index
      %k = arith.addi %k0, %j : index
      %v = memref.load %x[%k] : memref<?xf32>
      memref.store %v, %mat[%i, %j] : memref<?x3xf32>
    }
  }
  %dyn = memref.cast %mat : memref<?x3xf32> to memref<?x?xf32>
  %means = memref.alloc(%rows) : memref<?xf32>
  %norms = memref.alloc(%rows) : memref<?xf32>
  call @row_stats(%dyn, %means, %norms) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %centered = memref.alloc(%rows) : memref<?xf32>
  call @row_centered(%dyn, %means, %centered) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %zero = arith.constant 0.0 : f32
  %order = memref.alloca() : memref<f32>
  %tot = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %means[%i] : memref<?xf32>
    %b = memref.load %norms[%i] : memref<?xf32>
    %d = memref.load %centered[%i] : memref<?xf32>
    %ab = arith.addf %a, %b : f32
    %abd = arith.addf %ab, %d : f32
    %t = arith.addf %acc, %abd : f32
    // A store each iteration keeps the checksum in loop order: the mapped
    // program may reassociate the float sum otherwise.
    memref.store %t, %order[] : memref<f32>
    scf.yield %t : f32
  }
  %r1 = memref.load %o1[%c0] : memref<1xf32>
  %r2 = memref.load %o2[%c0] : memref<1xf64>
  %r3 = memref.load %o3[%c0] : memref<2xf32>
  %r4 = memref.load %o3[%c1] : memref<2xf32>
  vector.print %r1 : f32
  vector.print %r2 : f64
  vector.print %r3 : f32
  vector.print %r4 : f32
  vector.print %tot : f32
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %xd : memref<?xf64>
  memref.dealloc %o1 : memref<1xf32>
  memref.dealloc %o2 : memref<1xf64>
  memref.dealloc %o3 : memref<2xf32>
  memref.dealloc %mat : memref<?x3xf32>
  memref.dealloc %means : memref<?xf32>
  memref.dealloc %norms : memref<?xf32>
  memref.dealloc %centered : memref<?xf32>
  return
}

func.func @main() {
  %sizes = memref.get_global @sizes : memref<6xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %k = %c0 to %c6 step %c1 {
    %n = memref.load %sizes[%k] : memref<6xindex>
    func.call @check(%n) : (index) -> ()
  }
  return
}

memref.global "private" constant @sizes : memref<6xindex> =
    dense<[0, 1, 33, 1000, 5001, 100003]>
