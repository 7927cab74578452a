// Reductions the named all-reduces cannot take directly, mapped and run by
// the CPU emulation, print what the original loops print: f16 values (moved
// as 32 bits in the block combine), combiner regions (no identity: each
// partial value carries a flag), a loop mixing both kinds, at 0, 1, 31, 32,
// 33, 256, 1000 and 5000 elements. Values are small integers, so every sum
// is exact in any order, f16 ones included.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-reductions -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// Blocks of one warp and 3 blocks, so most blocks and the last warp hold
// threads with nothing to fold at the small sizes.
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=32 max-blocks=3 unroll=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// The atomic cross-block combine leaves the f16 and region ones as they are.
// RUN: threadbind-opt %s -threadbind-map-reductions="cross-block=atomic max-blocks=2" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.atomic
// RUN: diff %t.ref %t.atomic

// n = 0: every result is its init value.
// CHECK: 0
// CHECK-NEXT: 1.5
// CHECK-NEXT: -100
// CHECK-NEXT: 0.25
// CHECK-NEXT: 2
// CHECK-NEXT: 64
// CHECK-NEXT: 7
// CHECK-NEXT: 1000
// CHECK-NEXT: 0.5
// n = 1: element 0 is -11.
// CHECK-NEXT: 1
// CHECK-NEXT: -9.5
// CHECK-NEXT: 11
// CHECK-NEXT: 11
// CHECK-NEXT: 11
// CHECK-NEXT: -11
// CHECK-NEXT: 7
// CHECK-NEXT: -11
// CHECK-NEXT: 11

func.func @sum_f16(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1.5 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    scf.reduce(%v : f16) {
    ^bb0(%a: f16, %b: f16):
      %s = arith.addf %a, %b : f16
      scf.reduce.return %s : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

func.func @maximum_f16(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -100.0 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    %neg = arith.negf %v : f16
    scf.reduce(%neg : f16) {
    ^bb0(%a: f16, %b: f16):
      %s = arith.maximumf %a, %b : f16
      scf.reduce.return %s : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

// The largest magnitude: a region, so no identity is known.
func.func @absmax_f16(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.25 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    scf.reduce(%v : f16) {
    ^bb0(%a: f16, %b: f16):
      %aa = math.absf %a : f16
      %bb = math.absf %b : f16
      %m = arith.maxnumf %aa, %bb : f16
      scf.reduce.return %m : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

func.func @absmax_f32(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %aa = math.absf %a : f32
      %bb = math.absf %b : f32
      %m = arith.maxnumf %aa, %bb : f32
      scf.reduce.return %m : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// Bitwise or spelt (a ^ b) + (a & b): the same function, but a region.
func.func @or_region_i32(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 64 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %xor = arith.xori %a, %b : i32
      %and = arith.andi %a, %b : i32
      %s = arith.addi %xor, %and : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

// A named sum, a region's minimum (through a compare and a select) and the
// f16 largest magnitude from one loop over every second element from 1.
func.func @mixed(%x: memref<?xi32>, %h: memref<?xf16>, %sum: memref<1xi32>,
                 %min: memref<1xi32>, %mag: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7 : i32
  %big = arith.constant 1000 : i32
  %half = arith.constant 0.5 : f16
  %n = memref.dim %x, %c0 : memref<?xi32>
  %s, %m, %g = scf.parallel (%i) = (%c0) to (%n) step (%c1)
      init (%seven, %big, %half) -> (i32, i32, f16) {
    %v = memref.load %x[%i] : memref<?xi32>
    %w = memref.load %h[%i] : memref<?xf16>
    %k = arith.remui %i, %c2 : index
    %odd = arith.cmpi eq, %k, %c1 : index
    %zero = arith.constant 0 : i32
    %add = arith.select %odd, %v, %zero : i32
    scf.reduce(%add, %v, %w : i32, i32, f16) {
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      scf.reduce.return %t : i32
    }, {
    ^bb0(%a: i32, %b: i32):
      %lt = arith.cmpi slt, %a, %b : i32
      %t = arith.select %lt, %a, %b : i32
      scf.reduce.return %t : i32
    }, {
    ^bb0(%a: f16, %b: f16):
      %aa = math.absf %a : f16
      %bb = math.absf %b : f16
      %t = arith.maximumf %aa, %bb : f16
      scf.reduce.return %t : f16
    }
  }
  memref.store %s, %sum[%c0] : memref<1xi32>
  memref.store %m, %min[%c0] : memref<1xi32>
  memref.store %g, %mag[%c0] : memref<1xf16>
  return
}

// Element i of a test input: (37 i mod 23) - 11.
func.func @value(%i: index) -> i32 {
  %c37 = arith.constant 37 : index
  %c23 = arith.constant 23 : index
  %c11 = arith.constant 11 : i32
  %m = arith.muli %i, %c37 : index
  %r = arith.remui %m, %c23 : index
  %v = arith.index_cast %r : index to i32
  %out = arith.subi %v, %c11 : i32
  return %out : i32
}

func.func @input_i32(%n: index) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %k = func.call @value(%i) : (index) -> i32
    memref.store %k, %x[%i] : memref<?xi32>
  }
  return %x : memref<?xi32>
}

func.func @input_f32(%n: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %k = func.call @value(%i) : (index) -> i32
    %e = arith.sitofp %k : i32 to f32
    memref.store %e, %x[%i] : memref<?xf32>
  }
  return %x : memref<?xf32>
}

func.func @input_f16(%n: index) -> memref<?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc(%n) : memref<?xf16>
  scf.for %i = %c0 to %n step %c1 {
    %k = func.call @value(%i) : (index) -> i32
    %e = arith.sitofp %k : i32 to f16
    memref.store %e, %x[%i] : memref<?xf16>
  }
  return %x : memref<?xf16>
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  vector.print %n : index
  %h = func.call @input_f16(%n) : (index) -> memref<?xf16>
  %f = func.call @input_f32(%n) : (index) -> memref<?xf32>
  %x = func.call @input_i32(%n) : (index) -> memref<?xi32>
  %oh = memref.alloc() : memref<1xf16>
  %of = memref.alloc() : memref<1xf32>
  %oi = memref.alloc() : memref<1xi32>
  %oj = memref.alloc() : memref<1xi32>
  func.call @sum_f16(%h, %oh) : (memref<?xf16>, memref<1xf16>) -> ()
  %r0 = memref.load %oh[%c0] : memref<1xf16>
  vector.print %r0 : f16
  func.call @maximum_f16(%h, %oh) : (memref<?xf16>, memref<1xf16>) -> ()
  %r1 = memref.load %oh[%c0] : memref<1xf16>
  vector.print %r1 : f16
  func.call @absmax_f16(%h, %oh) : (memref<?xf16>, memref<1xf16>) -> ()
  %r2 = memref.load %oh[%c0] : memref<1xf16>
  vector.print %r2 : f16
  func.call @absmax_f32(%f, %of) : (memref<?xf32>, memref<1xf32>) -> ()
  %r3 = memref.load %of[%c0] : memref<1xf32>
  vector.print %r3 : f32
  func.call @or_region_i32(%x, %oi) : (memref<?xi32>, memref<1xi32>) -> ()
  %r4 = memref.load %oi[%c0] : memref<1xi32>
  vector.print %r4 : i32
  func.call @mixed(%x, %h, %oi, %oj, %oh) : (memref<?xi32>, memref<?xf16>, memref<1xi32>, memref<1xi32>, memref<1xf16>) -> ()
  %r5 = memref.load %oi[%c0] : memref<1xi32>
  %r6 = memref.load %oj[%c0] : memref<1xi32>
  %r7 = memref.load %oh[%c0] : memref<1xf16>
  vector.print %r5 : i32
  vector.print %r6 : i32
  vector.print %r7 : f16
  memref.dealloc %oh : memref<1xf16>
  memref.dealloc %of : memref<1xf32>
  memref.dealloc %oi : memref<1xi32>
  memref.dealloc %oj : memref<1xi32>
  memref.dealloc %h : memref<?xf16>
  memref.dealloc %f : memref<?xf32>
  memref.dealloc %x : memref<?xi32>
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
