// The cache lines weighed before a 3-D stencil's start moves take lower
// bounds and offsets anywhere in i64: a stencil from 2^63 - 8 (24 past a
// warp's width, so the count is made) read at offsets -(-2^63 + 1), 2^62
// and -(-2^63) is counted without overflow (the sanitizer build runs this
// under UBSan) and mapped.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s

// CHECK-LABEL: func.func @far
// CHECK:         gpu.launch
func.func @far(%a: memref<?x?x?xf32>, %c: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lb = arith.constant 9223372036854775800 : index
  %ub = arith.constant 9223372036854775807 : index
  %far = arith.constant -9223372036854775807 : index
  %min = arith.constant -9223372036854775808 : index
  %big = arith.constant 4611686018427387904 : index
  %l = memref.dim %a, %c0 : memref<?x?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?x?xf32>
  scf.parallel (%k, %i, %j) = (%c0, %c0, %lb) to (%l, %m, %ub) step (%c1, %c1, %c1) {
    %jm = arith.subi %j, %far : index
    %jp = arith.addi %j, %big : index
    %jn = arith.subi %j, %min : index
    %x = memref.load %a[%k, %i, %jm] : memref<?x?x?xf32>
    %y = memref.load %a[%k, %i, %jp] : memref<?x?x?xf32>
    %z = memref.load %a[%k, %i, %jn] : memref<?x?x?xf32>
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    memref.store %t, %c[%k, %i, %j] : memref<?x?x?xf32>
  }
  return
}
