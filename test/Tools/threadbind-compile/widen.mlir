// Widening through the driver: each kernel's hot loop loads and stores 16
// bytes a thread (ld.global.v4.b32 for 4 f32, 8 f16 or 16 i8, v2.b64 for
// 2 f64), and keeps scalar accesses for the rest and the fallback.
// --vector-bytes=0 leaves every access scalar; a bad width stops the
// compile before any output is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --collapse-nests=false -o %t/wide.ptx
// RUN: FileCheck %s < %t/wide.ptx
// RUN: threadbind-compile %s --collapse-nests=false --vector-bytes=0 -o %t/scalar.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t/scalar.ptx
// RUN: threadbind-compile %s --collapse-nests=false --widen-unroll=4 --emit cubin -o %t/unroll.cubin
// RUN: threadbind-compile %s --collapse-nests=false --widen-nested-loops=false -o %t/flat.ptx
// RUN: FileCheck %s --check-prefix=FLAT < %t/flat.ptx
// RUN: not threadbind-compile %s --vector-bytes=12 -o %t/bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ls %t/bad.ptx

// CHECK-LABEL: .entry add_f32_kernel(
// CHECK: ld.global.v4.b32
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry scale_f16_kernel(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry xor_i8_kernel(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry axpy_f64_kernel(
// CHECK: ld.global.v2.b64
// CHECK: ld.global.v2.b64
// CHECK: st.global.v2.b64

// The 2-D rows are widened too, unless --widen-nested-loops=false.
// CHECK-LABEL: .entry rows_kernel(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// FLAT-LABEL: .entry rows_kernel(
// FLAT-NOT: .v4.

// SCALAR-NOT: .v2.
// SCALAR-NOT: .v4.

// BAD: error: vector-bytes must be 0, 4, 8 or 16, not 12

func.func @add_f32(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = memref.load %b[%i] : memref<?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%i] : memref<?xf32>
  }
  return
}

func.func @scale_f16(%x: memref<?xf16>, %y: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 3.0 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf16>
    %r = arith.mulf %v, %k : f16
    memref.store %r, %y[%i] : memref<?xf16>
  }
  return
}

func.func @xor_i8(%x: memref<?xi8>, %y: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 90 : i8
  %n = memref.dim %x, %c0 : memref<?xi8>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xi8>
    %r = arith.xori %v, %k : i8
    memref.store %r, %y[%i] : memref<?xi8>
  }
  return
}

func.func @axpy_f64(%x: memref<?xf64>, %y: memref<?xf64>, %a: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = memref.load %y[%i] : memref<?xf64>
    %p = arith.mulf %v, %a : f64
    %r = arith.addf %p, %w : f64
    memref.store %r, %y[%i] : memref<?xf64>
  }
  return
}

func.func @rows(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.negf %x : f32
    memref.store %y, %b[%i, %j] : memref<?x?xf32>
  }
  return
}
