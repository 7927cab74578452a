// Strided layout: the loop walks memref.subview views with strides 3 and
// 2 and non-zero offsets, made on the host and passed to the kernel. The
// access analysis sees no unit stride; widening must leave them scalar.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -expand-strided-metadata %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch -expand-strided-metadata %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -threadbind-widen-accesses -threadbind-test-emulate-gpu-launch -expand-strided-metadata %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile %s -o %t.ptx

// MAPPED-LABEL: func.func @run
// MAPPED: memref.subview
// MAPPED: gpu.launch
// CHECK: sizes = [4, 6]
// CHECK-NEXT: {{\[}}[0,   12,   2,   3,   27,   5],
// CHECK-NEXT: [6,   7,   8,   9,   10,   11],
// CHECK-NEXT: [12,   13,   14,   15,   16,   17],
// CHECK-NEXT: [18,   19,   20,   21,   22,   23]]

func.func @run(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // Row 0, every third element from column 1: a[0, 1], a[0, 4].
  %s = memref.subview %a[0, 1] [1, 2] [1, 3] : memref<?x?xf32> to memref<2xf32, strided<[3], offset: 1>>
  // Column 5, every other row from row 1: a[1, 5], a[3, 5].
  %t = memref.subview %a[1, 5] [2, 1] [2, 1] : memref<?x?xf32> to memref<2xf32, strided<[?], offset: ?>>
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %x = memref.load %s[%i] : memref<2xf32, strided<[3], offset: 1>>
    %y = memref.load %t[%i] : memref<2xf32, strided<[?], offset: ?>>
    %z = arith.addf %x, %y : f32
    memref.store %z, %s[%i] : memref<2xf32, strided<[3], offset: 1>>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// A 4x6 buffer holding 0 to 23, handed to @run, then printed.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c24 = arith.constant 24 : index
  %flat = memref.alloc() : memref<24xf32>
  scf.for %i = %c0 to %c24 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %flat[%i] : memref<24xf32>
  }
  %a = memref.expand_shape %flat [[0, 1]] output_shape [4, 6] : memref<24xf32> into memref<4x6xf32>
  %d = memref.cast %a : memref<4x6xf32> to memref<?x?xf32>
  call @run(%d) : (memref<?x?xf32>) -> ()
  %u = memref.cast %a : memref<4x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %flat : memref<24xf32>
  return
}
