// Reductions of 8- and 16-bit values and of bf16 print what the original
// loops print: an i8 sum that wraps, an i8 max, an i16 min and unsigned
// max, an i16 product, a bf16 sum of small integers (exact in any order),
// an i16 combiner region (a flag rides beside each partial value) and i8
// row sums. Lengths 0, 1, 31, 33 and 1000, views that start one element
// in, and grids small enough that every thread folds many elements.
// Narrow values cross the block through 32-bit shuffles and scratch of
// their own type (no sub-word atomics); the results must not change.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=64 max-blocks=4" > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=32 max-blocks=3 unroll=16" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.unroll
// RUN: diff %t.ref %t.unroll
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=64 max-blocks=2 vector-bytes=0" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.scalar
// RUN: diff %t.ref %t.scalar
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=128" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.pipeline
// RUN: diff %t.ref %t.pipeline
// RUN: threadbind-compile %s -o %t.ptx
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// Every loop is bound: no loop is left to one thread, and no atomic
// combines narrow values across blocks.
// MAPPED-NOT: atomic_rmw {{.*}} : (i8
// MAPPED-NOT: atomic_rmw {{.*}} : (i16
// MAPPED-LABEL: func.func @sum_i8
// MAPPED: gpu.all_reduce
// MAPPED-LABEL: func.func @rows_i8
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @main
// MAPPED-NOT: scf.parallel {{.*}} -> i8
// MAPPED-NOT: scf.parallel {{.*}} -> i16

// The empty range gives the inits (i16 min, unsigned max, product, the
// region); 1000 elements from one in: the i8 sum wraps to -25.
// CHECK: sum_i8
// CHECK-NEXT: [3,  -128,  32767,  0,  1,  0,  2]
// CHECK-COUNT-3: sum_i8
// CHECK: sum_i8
// CHECK-NEXT: [-25,  127,  -8000,  65511,  16009,  9748,  8]
// CHECK: rows_i8
// CHECK-NEXT: [80,  -75,  26,  127,  -28,  73,  -82]
// CHECK: [0,  0,  0]

!i8v = memref<?xi8, strided<[1], offset: ?>>
!i16v = memref<?xi16, strided<[1], offset: ?>>
!bf16v = memref<?xbf16, strided<[1], offset: ?>>

func.func @sum_i8(%x: !i8v, %out: memref<2xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 3 : i8
  %low = arith.constant -128 : i8
  %n = memref.dim %x, %c0 : !i8v
  %s:2 = scf.parallel (%i) = (%c0) to (%n) step (%c1)
      init (%init, %low) -> (i8, i8) {
    %v = memref.load %x[%i] : !i8v
    scf.reduce(%v, %v : i8, i8) {
    ^bb0(%a: i8, %b: i8):
      %t = arith.addi %a, %b : i8
      scf.reduce.return %t : i8
    }, {
    ^bb0(%a: i8, %b: i8):
      %t = arith.maxsi %a, %b : i8
      scf.reduce.return %t : i8
    }
  }
  memref.store %s#0, %out[%c0] : memref<2xi8>
  memref.store %s#1, %out[%c1] : memref<2xi8>
  return
}

func.func @mix_i16(%x: !i16v, %out: memref<4xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %big = arith.constant 32767 : i16
  %zero = arith.constant 0 : i16
  %one = arith.constant 1 : i16
  %n = memref.dim %x, %c0 : !i16v
  %s:4 = scf.parallel (%i) = (%c0) to (%n) step (%c1)
      init (%big, %zero, %one, %zero) -> (i16, i16, i16, i16) {
    %v = memref.load %x[%i] : !i16v
    %odd = arith.ori %v, %one : i16
    scf.reduce(%v, %v, %odd, %v : i16, i16, i16, i16) {
    ^bb0(%a: i16, %b: i16):
      %t = arith.minsi %a, %b : i16
      scf.reduce.return %t : i16
    }, {
    ^bb0(%a: i16, %b: i16):
      %t = arith.maxui %a, %b : i16
      scf.reduce.return %t : i16
    }, {
    ^bb0(%a: i16, %b: i16):
      %t = arith.muli %a, %b : i16
      scf.reduce.return %t : i16
    }, {
    // The larger magnitude, its sign kept (of equal ones, the positive:
    // combiners must be commutative); no identity, so a region.
    ^bb0(%a: i16, %b: i16):
      %z = arith.constant 0 : i16
      %na = arith.subi %z, %a : i16
      %nb = arith.subi %z, %b : i16
      %ma = arith.maxsi %a, %na : i16
      %mb = arith.maxsi %b, %nb : i16
      %bigger = arith.cmpi sgt, %ma, %mb : i16
      %smaller = arith.cmpi slt, %ma, %mb : i16
      %high = arith.maxsi %a, %b : i16
      %tie = arith.select %smaller, %b, %high : i16
      %t = arith.select %bigger, %a, %tie : i16
      scf.reduce.return %t : i16
    }
  }
  memref.store %s#0, %out[%c0] : memref<4xi16>
  memref.store %s#1, %out[%c1] : memref<4xi16>
  memref.store %s#2, %out[%c2] : memref<4xi16>
  memref.store %s#3, %out[%c3] : memref<4xi16>
  return
}

func.func @sum_bf16(%x: !bf16v, %out: memref<1xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 2.0 : bf16
  %n = memref.dim %x, %c0 : !bf16v
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> bf16 {
    %v = memref.load %x[%i] : !bf16v
    scf.reduce(%v : bf16) {
    ^bb0(%a: bf16, %b: bf16):
      %t = arith.addf %a, %b : bf16
      scf.reduce.return %t : bf16
    }
  }
  memref.store %s, %out[%c0] : memref<1xbf16>
  return
}

// One i8 sum a row (it wraps), rows of a 2-D buffer.
func.func @rows_i8(%x: memref<?x?xi8>, %out: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i8
  %rows = memref.dim %x, %c0 : memref<?x?xi8>
  %cols = memref.dim %x, %c1 : memref<?x?xi8>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.parallel (%k) = (%c0) to (%cols) step (%c1) init (%zero) -> i8 {
      %v = memref.load %x[%r, %k] : memref<?x?xi8>
      scf.reduce(%v : i8) {
      ^bb0(%a: i8, %b: i8):
        %t = arith.addi %a, %b : i8
        scf.reduce.return %t : i8
      }
    }
    memref.store %s, %out[%r] : memref<?xi8>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// Prints `v`.
func.func @show(%v: memref<?xi32>) {
  %u = memref.cast %v : memref<?xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c1001 = arith.constant 1001 : index
  %c17 = arith.constant 17 : i32
  %c37 = arith.constant 37 : i32
  %c3 = arith.constant 3 : i32
  %c29 = arith.constant 29 : i32
  %c13 = arith.constant 13 : i32
  // x8[i] = (i * 37) mod 256 as i8 (wraps negative); x16[i] = (i * 37 mod
  // 613) * 29 - 8000, over both signs; xb[i] = i mod 13 - 6 in bf16.
  %x8 = memref.alloc(%c1001) : memref<?xi8>
  %x16 = memref.alloc(%c1001) : memref<?xi16>
  %xb = memref.alloc(%c1001) : memref<?xbf16>
  %c613 = arith.constant 613 : i32
  %c8000 = arith.constant 8000 : i32
  %c6 = arith.constant 6 : i32
  scf.for %i = %c0 to %c1001 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %m = arith.muli %ii, %c37 : i32
    %b = arith.trunci %m : i32 to i8
    memref.store %b, %x8[%i] : memref<?xi8>
    %r = arith.remsi %m, %c613 : i32
    %w = arith.muli %r, %c29 : i32
    %w2 = arith.subi %w, %c8000 : i32
    %h = arith.trunci %w2 : i32 to i16
    memref.store %h, %x16[%i] : memref<?xi16>
    %q = arith.remsi %ii, %c13 : i32
    %q2 = arith.subi %q, %c6 : i32
    %f = arith.sitofp %q2 : i32 to bf16
    memref.store %f, %xb[%i] : memref<?xbf16>
  }
  %o8 = memref.alloc() : memref<2xi8>
  %o16 = memref.alloc() : memref<4xi16>
  %ob = memref.alloc() : memref<1xbf16>
  %print = memref.alloc(%c4) : memref<?xi32>
  // (offset, length) pairs: empty, one, 31, 33 and 1000 from one in.
  %offsets = arith.constant dense<[0, 5, 1, 0, 1]> : vector<5xindex>
  %lengths = arith.constant dense<[0, 1, 31, 33, 1000]> : vector<5xindex>
  %c5 = arith.constant 5 : index
  scf.for %t = %c0 to %c5 step %c1 {
    %off = vector.extract %offsets[%t] : index from vector<5xindex>
    %len = vector.extract %lengths[%t] : index from vector<5xindex>
    %v8 = memref.subview %x8[%off] [%len] [1] : memref<?xi8> to !i8v
    %v16 = memref.subview %x16[%off] [%len] [1] : memref<?xi16> to !i16v
    %vb = memref.subview %xb[%off] [%len] [1] : memref<?xbf16> to !bf16v
    func.call @sum_i8(%v8, %o8) : (!i8v, memref<2xi8>) -> ()
    func.call @mix_i16(%v16, %o16) : (!i16v, memref<4xi16>) -> ()
    func.call @sum_bf16(%vb, %ob) : (!bf16v, memref<1xbf16>) -> ()
    vector.print str "sum_i8 "
    %a0 = memref.load %o8[%c0] : memref<2xi8>
    %a1 = memref.load %o8[%c1] : memref<2xi8>
    %b0 = memref.load %o16[%c0] : memref<4xi16>
    %b1 = memref.load %o16[%c1] : memref<4xi16>
    %b2 = memref.load %o16[%c2] : memref<4xi16>
    %c3i = arith.constant 3 : index
    %b3 = memref.load %o16[%c3i] : memref<4xi16>
    %f0 = memref.load %ob[%c0] : memref<1xbf16>
    %e0 = arith.extsi %a0 : i8 to i32
    %e1 = arith.extsi %a1 : i8 to i32
    %e2 = arith.extsi %b0 : i16 to i32
    %e3 = arith.extui %b1 : i16 to i32
    %e4 = arith.extsi %b2 : i16 to i32
    %e5 = arith.extsi %b3 : i16 to i32
    %e6 = arith.fptosi %f0 : bf16 to i32
    %results = memref.alloc() : memref<7xi32>
    memref.store %e0, %results[%c0] : memref<7xi32>
    memref.store %e1, %results[%c1] : memref<7xi32>
    memref.store %e2, %results[%c2] : memref<7xi32>
    memref.store %e3, %results[%c3i] : memref<7xi32>
    memref.store %e4, %results[%c4] : memref<7xi32>
    %c5i = arith.constant 5 : index
    %c6i = arith.constant 6 : index
    memref.store %e5, %results[%c5i] : memref<7xi32>
    memref.store %e6, %results[%c6i] : memref<7xi32>
    %rv = memref.cast %results : memref<7xi32> to memref<?xi32>
    func.call @show(%rv) : (memref<?xi32>) -> ()
    memref.dealloc %results : memref<7xi32>
  }

  // 7 rows of 33 and 3 rows of 0.
  %c7 = arith.constant 7 : index
  %c33 = arith.constant 33 : index
  %c3x = arith.constant 3 : index
  %m = memref.alloc(%c7, %c33) : memref<?x?xi8>
  scf.for %r = %c0 to %c7 step %c1 {
    scf.for %k = %c0 to %c33 step %c1 {
      %rk = arith.muli %r, %c33 : index
      %i = arith.addi %rk, %k : index
      %v = memref.load %x8[%i] : memref<?xi8>
      memref.store %v, %m[%r, %k] : memref<?x?xi8>
    }
  }
  %rs = memref.alloc(%c7) : memref<?xi8>
  func.call @rows_i8(%m, %rs) : (memref<?x?xi8>, memref<?xi8>) -> ()
  %e = memref.alloc(%c3x, %c0) : memref<?x?xi8>
  %es = memref.alloc(%c3x) : memref<?xi8>
  scf.for %r = %c0 to %c3x step %c1 {
    %k = arith.constant 9 : i8
    memref.store %k, %es[%r] : memref<?xi8>
  }
  func.call @rows_i8(%e, %es) : (memref<?x?xi8>, memref<?xi8>) -> ()
  vector.print str "rows_i8 "
  %wide = memref.alloc(%c7) : memref<?xi32>
  scf.for %r = %c0 to %c7 step %c1 {
    %v = memref.load %rs[%r] : memref<?xi8>
    %w = arith.extsi %v : i8 to i32
    memref.store %w, %wide[%r] : memref<?xi32>
  }
  func.call @show(%wide) : (memref<?xi32>) -> ()
  %ew = memref.alloc(%c3x) : memref<?xi32>
  scf.for %r = %c0 to %c3x step %c1 {
    %v = memref.load %es[%r] : memref<?xi8>
    %w = arith.extsi %v : i8 to i32
    memref.store %w, %ew[%r] : memref<?xi32>
  }
  func.call @show(%ew) : (memref<?xi32>) -> ()
  return
}
