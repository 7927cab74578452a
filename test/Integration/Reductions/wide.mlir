// Reductions that fold through vector loads print what the original loops
// print: an f32 sum and a dot product (4 elements a vector), an f16 sum (8),
// an xor of i8 (16) and a max of i64 (2), over views that start aligned and
// one element in (the scalar fallback), and row sums over rows of 7 and 8
// elements, whose starts are aligned only where the row allows it. Sizes
// around the vector, the unrolled chunk and the grid: 4 blocks of 64
// threads at most. Values are small integers, exact in any order.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=64 max-blocks=4" > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.wide
// RUN: diff %t.ref %t.wide
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=32 max-blocks=3 unroll=16" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.unroll
// RUN: diff %t.ref %t.unroll
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=64 max-blocks=2 vector-bytes=8 unroll=1" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.eight
// RUN: diff %t.ref %t.eight

// MAPPED-LABEL: func.func @sum_f32
// MAPPED: scf.if
// MAPPED: vector.load {{.*}} {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<4xf32>
// MAPPED: } else {
// MAPPED-LABEL: func.func @sum_f16
// MAPPED: vector.load {{.*}} vector<8xf16>
// MAPPED-LABEL: func.func @xor_i8
// MAPPED: vector.load {{.*}} vector<16xi8>
// MAPPED-LABEL: func.func @row_sums
// MAPPED: vector.load {{.*}} : memref<?x?xf32>, vector<4xf32>

!f32v = memref<?xf32, strided<[1], offset: ?>>
!f16v = memref<?xf16, strided<[1], offset: ?>>
!i8v = memref<?xi8, strided<[1], offset: ?>>
!i64v = memref<?xi64, strided<[1], offset: ?>>

func.func @sum_f32(%x: !f32v, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.5 : f32
  %n = memref.dim %x, %c0 : !f32v
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : !f32v
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @dot_f32(%x: !f32v, %y: !f32v, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : !f32v
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %a = memref.load %x[%i] : !f32v
    %b = memref.load %y[%i] : !f32v
    %p = arith.mulf %a, %b : f32
    scf.reduce(%p : f32) {
    ^bb0(%l: f32, %m: f32):
      %t = arith.addf %l, %m : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

func.func @sum_f16(%x: !f16v, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1.0 : f16
  %n = memref.dim %x, %c0 : !f16v
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : !f16v
    scf.reduce(%v : f16) {
    ^bb0(%a: f16, %b: f16):
      %t = arith.addf %a, %b : f16
      scf.reduce.return %t : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

// Bytes in, an i32 xor of their sign extensions out.
func.func @xor_i8(%x: !i8v, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 5 : i32
  %n = memref.dim %x, %c0 : !i8v
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %b = memref.load %x[%i] : !i8v
    %v = arith.extsi %b : i8 to i32
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %c: i32):
      %t = arith.xori %a, %c : i32
      scf.reduce.return %t : i32
    }
  }
  memref.store %r, %out[%c0] : memref<1xi32>
  return
}

func.func @max_i64(%x: !i64v, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -1000 : i64
  %n = memref.dim %x, %c0 : !i64v
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : !i64v
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %t = arith.maxsi %a, %b : i64
      scf.reduce.return %t : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}

func.func @row_sums(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c4 = arith.constant 4 : index
  return %c4 : index
}

// Element i of an input: (37 i mod 23) - 11.
func.func @value(%i: index) -> i32 {
  %c37 = arith.constant 37 : index
  %c23 = arith.constant 23 : index
  %c11 = arith.constant 11 : i32
  %m = arith.muli %i, %c37 : index
  %r = arith.remui %m, %c23 : index
  %ri = arith.index_cast %r : index to i32
  %v = arith.subi %ri, %c11 : i32
  return %v : i32
}

// Every reduction over n elements, starting `shift` elements into buffers
// of n + 1.
func.func @one_size(%n: index, %shift: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n1 = arith.addi %n, %c1 : index
  %bf32 = memref.alloc(%n1) : memref<?xf32>
  %bf32b = memref.alloc(%n1) : memref<?xf32>
  %bf16 = memref.alloc(%n1) : memref<?xf16>
  %bi8 = memref.alloc(%n1) : memref<?xi8>
  %bi64 = memref.alloc(%n1) : memref<?xi64>
  scf.for %i = %c0 to %n1 step %c1 {
    %v = func.call @value(%i) : (index) -> i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %bf32[%i] : memref<?xf32>
    %j = arith.addi %i, %c1 : index
    %w = func.call @value(%j) : (index) -> i32
    %g = arith.sitofp %w : i32 to f32
    memref.store %g, %bf32b[%i] : memref<?xf32>
    %h = arith.sitofp %v : i32 to f16
    memref.store %h, %bf16[%i] : memref<?xf16>
    %b = arith.trunci %v : i32 to i8
    memref.store %b, %bi8[%i] : memref<?xi8>
    %l = arith.extsi %v : i32 to i64
    memref.store %l, %bi64[%i] : memref<?xi64>
  }
  %x = memref.subview %bf32[%shift] [%n] [1] : memref<?xf32> to !f32v
  %y = memref.subview %bf32b[%shift] [%n] [1] : memref<?xf32> to !f32v
  %h = memref.subview %bf16[%shift] [%n] [1] : memref<?xf16> to !f16v
  %b = memref.subview %bi8[%shift] [%n] [1] : memref<?xi8> to !i8v
  %l = memref.subview %bi64[%shift] [%n] [1] : memref<?xi64> to !i64v
  %o32 = memref.alloc() : memref<1xf32>
  %o16 = memref.alloc() : memref<1xf16>
  %o8 = memref.alloc() : memref<1xi32>
  %o64 = memref.alloc() : memref<1xi64>
  vector.print str "size "
  vector.print %n : index
  call @sum_f32(%x, %o32) : (!f32v, memref<1xf32>) -> ()
  %r1 = memref.load %o32[%c0] : memref<1xf32>
  vector.print %r1 : f32
  call @dot_f32(%x, %y, %o32) : (!f32v, !f32v, memref<1xf32>) -> ()
  %r2 = memref.load %o32[%c0] : memref<1xf32>
  vector.print %r2 : f32
  call @sum_f16(%h, %o16) : (!f16v, memref<1xf16>) -> ()
  %r3 = memref.load %o16[%c0] : memref<1xf16>
  %r3f = arith.extf %r3 : f16 to f32
  vector.print %r3f : f32
  call @xor_i8(%b, %o8) : (!i8v, memref<1xi32>) -> ()
  %r4 = memref.load %o8[%c0] : memref<1xi32>
  vector.print %r4 : i32
  call @max_i64(%l, %o64) : (!i64v, memref<1xi64>) -> ()
  %r5 = memref.load %o64[%c0] : memref<1xi64>
  vector.print %r5 : i64
  return
}

func.func @rows_of(%r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%r, %c) : memref<?x?xf32>
  %out = memref.alloc(%r) : memref<?xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %k = arith.muli %i, %c : index
      %l = arith.addi %k, %j : index
      %v = func.call @value(%l) : (index) -> i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    }
  }
  call @row_sums(%m, %out) : (memref<?x?xf32>, memref<?xf32>) -> ()
  vector.print str "rows "
  scf.for %i = %c0 to %r step %c1 {
    %s = memref.load %out[%i] : memref<?xf32>
    vector.print %s : f32
  }
  return
}

func.func @main() {
  %sizes = arith.constant dense<[0, 1, 3, 4, 5, 33, 257, 1000, 4099]> : vector<9xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  scf.for %k = %c0 to %c9 step %c1 {
    %n = vector.extract %sizes[%k] : index from vector<9xindex>
    func.call @one_size(%n, %c0) : (index, index) -> ()
    func.call @one_size(%n, %c1) : (index, index) -> ()
  }
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c1001 = arith.constant 1001 : index
  call @rows_of(%c3, %c7) : (index, index) -> ()
  call @rows_of(%c3, %c8) : (index, index) -> ()
  call @rows_of(%c3, %c1001) : (index, index) -> ()
  return
}

// Size 0: the init values. Size 5 by hand: -11 + 3 - 6 + 8 - 1 + 0.5.
// CHECK: size 0
// CHECK-NEXT: 0.5
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 5
// CHECK-NEXT: -1000
// CHECK: size 5
// CHECK-NEXT: -6.5
