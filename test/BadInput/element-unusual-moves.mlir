// Unusual element types that kernels move but do not compute on: f8E4M3FN,
// f4E2M1FN, i4, f128 and i128, each copied from one memref to another. The
// host writes bit patterns and reads them back through integer bitcasts,
// so every bit must survive the trip (f8 travels as i8, f128 as 128 bits).
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -threadbind-widen-accesses -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile %s -o %t.ptx
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// MAPPED-LABEL: func.func @copy
// MAPPED-COUNT-5: gpu.launch
// CHECK: sizes = [5, 3]
// CHECK-NEXT: {{\[}}[127,   -128,   1],
// CHECK-NEXT: [7,   -8,   1],
// CHECK-NEXT: [7,   -8,   1],
// CHECK-NEXT: [-1,   1073676288,   0],
// CHECK-NEXT: [1234567,   -1,   -1]]

func.func @copy(%a8: memref<?xf8E4M3FN>, %b8: memref<?xf8E4M3FN>,
                %a4: memref<?xf4E2M1FN>, %b4: memref<?xf4E2M1FN>,
                %ai4: memref<?xi4>, %bi4: memref<?xi4>,
                %aq: memref<?xf128>, %bq: memref<?xf128>,
                %ai: memref<?xi128>, %bi: memref<?xi128>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a8[%i] : memref<?xf8E4M3FN>
    memref.store %x, %b8[%i] : memref<?xf8E4M3FN>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a4[%i] : memref<?xf4E2M1FN>
    memref.store %x, %b4[%i] : memref<?xf4E2M1FN>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %ai4[%i] : memref<?xi4>
    memref.store %x, %bi4[%i] : memref<?xi4>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %aq[%i] : memref<?xf128>
    memref.store %x, %bq[%i] : memref<?xf128>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %ai[%i] : memref<?xi128>
    memref.store %x, %bi[%i] : memref<?xi128>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// Each row: the three values of one type, read back as integers (the f128
// row shows the top, next and low 32 bits of the one-value pattern, the
// i128 row the low, high-low and top words of the other).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a8 = memref.alloc(%c3) : memref<?xf8E4M3FN>
  %b8 = memref.alloc(%c3) : memref<?xf8E4M3FN>
  %a4 = memref.alloc(%c3) : memref<?xf4E2M1FN>
  %b4 = memref.alloc(%c3) : memref<?xf4E2M1FN>
  %ai4 = memref.alloc(%c3) : memref<?xi4>
  %bi4 = memref.alloc(%c3) : memref<?xi4>
  %aq = memref.alloc(%c3) : memref<?xf128>
  %bq = memref.alloc(%c3) : memref<?xf128>
  %ai = memref.alloc(%c3) : memref<?xi128>
  %bi = memref.alloc(%c3) : memref<?xi128>
  // i8 patterns 127, -128, 1 and i4 patterns 7, -8, 1.
  %p8 = arith.constant dense<[127, -128, 1]> : vector<3xi8>
  %p4 = arith.constant dense<[7, -8, 1]> : vector<3xi4>
  scf.for %i = %c0 to %c3 step %c1 {
    %v8 = vector.extract %p8[%i] : i8 from vector<3xi8>
    %f8 = arith.bitcast %v8 : i8 to f8E4M3FN
    memref.store %f8, %a8[%i] : memref<?xf8E4M3FN>
    %v4 = vector.extract %p4[%i] : i4 from vector<3xi4>
    %f4 = arith.bitcast %v4 : i4 to f4E2M1FN
    memref.store %f4, %a4[%i] : memref<?xf4E2M1FN>
    memref.store %v4, %ai4[%i] : memref<?xi4>
  }
  // f128 bits 0xFFFFFFFF_3FFF0000_00000000_00000000 (a NaN), i128
  // 0xFFFFFFFF_FFFFFFFF_00000000_0012D687.
  %q = arith.constant -4294967296 : i64
  %qhi = arith.extui %q : i64 to i128
  %s64 = arith.constant 64 : i128
  %top = arith.shli %qhi, %s64 : i128
  %mid = arith.constant 1073676288 : i128
  %mids = arith.shli %mid, %s64 : i128
  %topmid = arith.ori %top, %mids : i128
  %fq = arith.bitcast %topmid : i128 to f128
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %fq, %aq[%i] : memref<?xf128>
  }
  %pi = arith.constant -18446744073708317049 : i128
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %pi, %ai[%i] : memref<?xi128>
  }
  call @copy(%a8, %b8, %a4, %b4, %ai4, %bi4, %aq, %bq, %ai, %bi, %c3) : (memref<?xf8E4M3FN>, memref<?xf8E4M3FN>, memref<?xf4E2M1FN>, memref<?xf4E2M1FN>, memref<?xi4>, memref<?xi4>, memref<?xf128>, memref<?xf128>, memref<?xi128>, memref<?xi128>, index) -> ()
  %out = memref.alloc() : memref<5x3xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    %f8 = memref.load %b8[%i] : memref<?xf8E4M3FN>
    %v8 = arith.bitcast %f8 : f8E4M3FN to i8
    %w8 = arith.extsi %v8 : i8 to i32
    memref.store %w8, %out[%c0, %i] : memref<5x3xi32>
    %f4 = memref.load %b4[%i] : memref<?xf4E2M1FN>
    %v4 = arith.bitcast %f4 : f4E2M1FN to i4
    %w4 = arith.extsi %v4 : i4 to i32
    memref.store %w4, %out[%c1, %i] : memref<5x3xi32>
    %x4 = memref.load %bi4[%i] : memref<?xi4>
    %y4 = arith.extsi %x4 : i4 to i32
    memref.store %y4, %out[%c2, %i] : memref<5x3xi32>
  }
  %c3i = arith.constant 3 : index
  %c4i = arith.constant 4 : index
  %gq = memref.load %bq[%c2] : memref<?xf128>
  %bits = arith.bitcast %gq : f128 to i128
  %s96 = arith.constant 96 : i128
  %w0 = arith.shrui %bits, %s96 : i128
  %w1 = arith.shrui %bits, %s64 : i128
  %t0 = arith.trunci %w0 : i128 to i32
  %t1 = arith.trunci %w1 : i128 to i32
  %t2 = arith.trunci %bits : i128 to i32
  memref.store %t0, %out[%c3i, %c0] : memref<5x3xi32>
  memref.store %t1, %out[%c3i, %c1] : memref<5x3xi32>
  memref.store %t2, %out[%c3i, %c2] : memref<5x3xi32>
  %gi = memref.load %bi[%c2] : memref<?xi128>
  %u1 = arith.shrui %gi, %s64 : i128
  %u2 = arith.shrui %gi, %s96 : i128
  %r0 = arith.trunci %gi : i128 to i32
  %r1 = arith.trunci %u1 : i128 to i32
  %r2 = arith.trunci %u2 : i128 to i32
  memref.store %r0, %out[%c4i, %c0] : memref<5x3xi32>
  memref.store %r1, %out[%c4i, %c1] : memref<5x3xi32>
  memref.store %r2, %out[%c4i, %c2] : memref<5x3xi32>
  %u = memref.cast %out : memref<5x3xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
