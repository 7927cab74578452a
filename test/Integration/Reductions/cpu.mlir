// Reductions mapped to kernels, with their all-reduces run in phases by the
// CPU emulation, print what the original loops print: every combiner kind
// once, at 0, 1, 31, 32, 33, 256, 1000 and 5000 elements (the emulated grid
// holds at most 4 blocks of 256 threads, so the larger sizes loop). Values
// are small integers, so float sums are exact in any order.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-reductions -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// And with 32-thread blocks and a 3-block grid, so blocks hold one warp.
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=32 max-blocks=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// And unrolled by 1 and by 3 (the default is 8).
// RUN: threadbind-opt %s -threadbind-map-reductions=unroll=1 -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.one
// RUN: diff %t.ref %t.one
// RUN: threadbind-opt %s -threadbind-map-reductions="unroll=3 threads-per-block=64 max-blocks=2" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.three
// RUN: diff %t.ref %t.three
// And combining blocks with atomics (every integer kind, and the f32 sum,
// whose small integer values add exactly in any order).
// RUN: threadbind-opt %s -threadbind-map-reductions="cross-block=atomic max-blocks=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.atomic
// RUN: diff %t.ref %t.atomic

// n = 0: every result is its init value.
// CHECK: 0
// CHECK-NEXT: 1.5
// CHECK-NEXT: 3
// CHECK-NEXT: -100
// CHECK-NEXT: 0.5
// CHECK-NEXT: -7
// CHECK-NEXT: -1000
// CHECK-NEXT: -1
// CHECK-NEXT: 5
// CHECK-NEXT: -1
// CHECK-NEXT: 0
// CHECK-NEXT: -10

func.func @sum_f32(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1.5 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @prod_f64(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 3.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.mulf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @maxnum_f32(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -100.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @minimum_f64(%x: memref<?xf64>, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.5 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.minimumf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  return
}

func.func @sum_i64(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -7 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.addi %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @maxsi_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1000 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.maxsi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @minui_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.minui %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @xor_i64(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 5 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %s = arith.xori %a, %b : i64
      scf.reduce.return %s : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @and_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.andi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

// Two results from one loop over every third element from 1.
func.func @sum_and_min(%x: memref<?xi32>, %sum: memref<1xi32>,
                       %min: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %ten = arith.constant -10.0 : f32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %s, %m = scf.parallel (%i) = (%c1) to (%n) step (%c3)
      init (%zero, %ten) -> (i32, f32) {
    %v = memref.load %x[%i] : memref<?xi32>
    %f = arith.sitofp %v : i32 to f32
    %neg = arith.negf %f : f32
    scf.reduce(%v, %neg : i32, f32) {
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      scf.reduce.return %t : i32
    }, {
    ^bb0(%a: f32, %b: f32):
      %t = arith.minnumf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %s, %sum[%c0] : memref<1xi32>
  memref.store %m, %min[%c0] : memref<1xf32>
  return
}

// Element i of a test input: (37 i mod 23) - 11, or for products its sign
// (+1 or -1), so products stay exact.
func.func @value(%i: index, %sign: i1) -> i64 {
  %c37 = arith.constant 37 : i64
  %c23 = arith.constant 23 : i64
  %c11 = arith.constant 11 : i64
  %one = arith.constant 1 : i64
  %minus = arith.constant -1 : i64
  %ii = arith.index_cast %i : index to i64
  %m = arith.muli %ii, %c37 : i64
  %r = arith.remsi %m, %c23 : i64
  %v = arith.subi %r, %c11 : i64
  %zero = arith.constant 0 : i64
  %neg = arith.cmpi slt, %v, %zero : i64
  %s = arith.select %neg, %minus, %one : i64
  %out = arith.select %sign, %s, %v : i64
  return %out : i64
}

func.func @input_f32(%n: index, %sign: i1) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z64 = arith.constant 0 : i64
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %k = func.call @value(%i, %sign) : (index, i1) -> i64
    %e = arith.sitofp %k : i64 to f32
    memref.store %e, %x[%i] : memref<?xf32>
  }
  return %x : memref<?xf32>
}

func.func @input_f64(%n: index, %sign: i1) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z64 = arith.constant 0 : i64
  %x = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %k = func.call @value(%i, %sign) : (index, i1) -> i64
    %e = arith.sitofp %k : i64 to f64
    memref.store %e, %x[%i] : memref<?xf64>
  }
  return %x : memref<?xf64>
}

func.func @input_i32(%n: index, %sign: i1) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z64 = arith.constant 0 : i64
  %x = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %k = func.call @value(%i, %sign) : (index, i1) -> i64
    %e = arith.trunci %k : i64 to i32
    memref.store %e, %x[%i] : memref<?xi32>
  }
  return %x : memref<?xi32>
}

func.func @input_i64(%n: index, %sign: i1) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z64 = arith.constant 0 : i64
  %x = memref.alloc(%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %k = func.call @value(%i, %sign) : (index, i1) -> i64
    %e = arith.addi %k, %z64 : i64
    memref.store %e, %x[%i] : memref<?xi64>
  }
  return %x : memref<?xi64>
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %true = arith.constant true
  vector.print %n : index
  %x_sum_f32 = func.call @input_f32(%n, %false) : (index, i1) -> memref<?xf32>
  %o_sum_f32 = memref.alloc() : memref<1xf32>
  func.call @sum_f32(%x_sum_f32, %o_sum_f32) : (memref<?xf32>, memref<1xf32>) -> ()
  %r_sum_f32 = memref.load %o_sum_f32[%c0] : memref<1xf32>
  vector.print %r_sum_f32 : f32
  memref.dealloc %o_sum_f32 : memref<1xf32>
  memref.dealloc %x_sum_f32 : memref<?xf32>
  %x_prod_f64 = func.call @input_f64(%n, %true) : (index, i1) -> memref<?xf64>
  %o_prod_f64 = memref.alloc() : memref<1xf64>
  func.call @prod_f64(%x_prod_f64, %o_prod_f64) : (memref<?xf64>, memref<1xf64>) -> ()
  %r_prod_f64 = memref.load %o_prod_f64[%c0] : memref<1xf64>
  vector.print %r_prod_f64 : f64
  memref.dealloc %o_prod_f64 : memref<1xf64>
  memref.dealloc %x_prod_f64 : memref<?xf64>
  %x_maxnum_f32 = func.call @input_f32(%n, %false) : (index, i1) -> memref<?xf32>
  %o_maxnum_f32 = memref.alloc() : memref<1xf32>
  func.call @maxnum_f32(%x_maxnum_f32, %o_maxnum_f32) : (memref<?xf32>, memref<1xf32>) -> ()
  %r_maxnum_f32 = memref.load %o_maxnum_f32[%c0] : memref<1xf32>
  vector.print %r_maxnum_f32 : f32
  memref.dealloc %o_maxnum_f32 : memref<1xf32>
  memref.dealloc %x_maxnum_f32 : memref<?xf32>
  %x_minimum_f64 = func.call @input_f64(%n, %false) : (index, i1) -> memref<?xf64>
  %o_minimum_f64 = memref.alloc() : memref<1xf64>
  func.call @minimum_f64(%x_minimum_f64, %o_minimum_f64) : (memref<?xf64>, memref<1xf64>) -> ()
  %r_minimum_f64 = memref.load %o_minimum_f64[%c0] : memref<1xf64>
  vector.print %r_minimum_f64 : f64
  memref.dealloc %o_minimum_f64 : memref<1xf64>
  memref.dealloc %x_minimum_f64 : memref<?xf64>
  %x_sum_i64 = func.call @input_i64(%n, %false) : (index, i1) -> memref<?xi64>
  %o_sum_i64 = memref.alloc() : memref<1xi64>
  func.call @sum_i64(%x_sum_i64, %o_sum_i64) : (memref<?xi64>, memref<1xi64>) -> ()
  %r_sum_i64 = memref.load %o_sum_i64[%c0] : memref<1xi64>
  vector.print %r_sum_i64 : i64
  memref.dealloc %o_sum_i64 : memref<1xi64>
  memref.dealloc %x_sum_i64 : memref<?xi64>
  %x_maxsi_i32 = func.call @input_i32(%n, %false) : (index, i1) -> memref<?xi32>
  %o_maxsi_i32 = memref.alloc() : memref<1xi32>
  func.call @maxsi_i32(%x_maxsi_i32, %o_maxsi_i32) : (memref<?xi32>, memref<1xi32>) -> ()
  %r_maxsi_i32 = memref.load %o_maxsi_i32[%c0] : memref<1xi32>
  vector.print %r_maxsi_i32 : i32
  memref.dealloc %o_maxsi_i32 : memref<1xi32>
  memref.dealloc %x_maxsi_i32 : memref<?xi32>
  %x_minui_i32 = func.call @input_i32(%n, %false) : (index, i1) -> memref<?xi32>
  %o_minui_i32 = memref.alloc() : memref<1xi32>
  func.call @minui_i32(%x_minui_i32, %o_minui_i32) : (memref<?xi32>, memref<1xi32>) -> ()
  %r_minui_i32 = memref.load %o_minui_i32[%c0] : memref<1xi32>
  vector.print %r_minui_i32 : i32
  memref.dealloc %o_minui_i32 : memref<1xi32>
  memref.dealloc %x_minui_i32 : memref<?xi32>
  %x_xor_i64 = func.call @input_i64(%n, %false) : (index, i1) -> memref<?xi64>
  %o_xor_i64 = memref.alloc() : memref<1xi64>
  func.call @xor_i64(%x_xor_i64, %o_xor_i64) : (memref<?xi64>, memref<1xi64>) -> ()
  %r_xor_i64 = memref.load %o_xor_i64[%c0] : memref<1xi64>
  vector.print %r_xor_i64 : i64
  memref.dealloc %o_xor_i64 : memref<1xi64>
  memref.dealloc %x_xor_i64 : memref<?xi64>
  %x_and_i32 = func.call @input_i32(%n, %false) : (index, i1) -> memref<?xi32>
  %o_and_i32 = memref.alloc() : memref<1xi32>
  func.call @and_i32(%x_and_i32, %o_and_i32) : (memref<?xi32>, memref<1xi32>) -> ()
  %r_and_i32 = memref.load %o_and_i32[%c0] : memref<1xi32>
  vector.print %r_and_i32 : i32
  memref.dealloc %o_and_i32 : memref<1xi32>
  memref.dealloc %x_and_i32 : memref<?xi32>
  %xs = func.call @input_i32(%n, %false) : (index, i1) -> memref<?xi32>
  %os = memref.alloc() : memref<1xi32>
  %om = memref.alloc() : memref<1xf32>
  func.call @sum_and_min(%xs, %os, %om) : (memref<?xi32>, memref<1xi32>, memref<1xf32>) -> ()
  %rs = memref.load %os[%c0] : memref<1xi32>
  %rm = memref.load %om[%c0] : memref<1xf32>
  vector.print %rs : i32
  vector.print %rm : f32
  memref.dealloc %os : memref<1xi32>
  memref.dealloc %om : memref<1xf32>
  memref.dealloc %xs : memref<?xi32>
  return
}

func.func @main() {
  %sizes = memref.get_global @sizes : memref<8xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %n = memref.load %sizes[%k] : memref<8xindex>
    func.call @check(%n) : (index) -> ()
  }
  return
}

memref.global "private" constant @sizes : memref<8xindex> =
    dense<[0, 1, 31, 32, 33, 256, 1000, 5000]>
