// Non-identity layout with every stride and the offset dynamic: the kernel
// takes memref<?x?xf32, strided<[?, ?], offset: ?>>, here a column-major
// view of rows 1 to 2 (a transposed subview) made by the caller. Nothing
// can be assumed about unit strides, so nothing is widened.
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

// MAPPED-LABEL: func.func @scale
// MAPPED: gpu.launch
// MAPPED-NOT: vector.load
// CHECK: sizes = [4, 6]
// CHECK-NEXT: {{\[}}[0,   1,   2,   3,   4,   5],
// CHECK-NEXT: [12,   14,   16,   18,   20,   22],
// CHECK-NEXT: [24,   26,   28,   30,   32,   34],
// CHECK-NEXT: [18,   19,   20,   21,   22,   23]]

func.func @scale(%v: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %v, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %n = memref.dim %v, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %v[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %y = arith.addf %x, %x : f32
    memref.store %y, %v[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
  }
  return
}

func.func @run(%a: memref<?x?xf32>) {
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %rows = memref.subview %a[1, 0] [%c2, %c6] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  %t = memref.transpose %rows (i, j) -> (j, i) : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[1, ?], offset: ?>>
  %v = memref.cast %t : memref<?x?xf32, strided<[1, ?], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  call @scale(%v) : (memref<?x?xf32, strided<[?, ?], offset: ?>>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// A 4x6 buffer holding 0 to 23, handed to @run, then printed.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
