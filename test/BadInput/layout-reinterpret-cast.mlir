// Non-identity layout from memref.reinterpret_cast: the 4x6 buffer seen as
// a 3x2 matrix with row stride 8, column stride 2 and offset 1 (elements
// 1, 3, 9, 11, 17, 19), made on the host and walked in the kernel.
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
// MAPPED: memref.reinterpret_cast
// MAPPED: gpu.launch
// CHECK: sizes = [4, 6]
// CHECK-NEXT: {{\[}}[0,   -1,   2,   -3,   4,   5],
// CHECK-NEXT: [6,   7,   8,   -9,   10,   -11],
// CHECK-NEXT: [12,   13,   14,   15,   16,   -17],
// CHECK-NEXT: [18,   -19,   20,   21,   22,   23]]

func.func @run(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = memref.reinterpret_cast %a to offset: [1], sizes: [3, 2], strides: [8, 2] : memref<?x?xf32> to memref<3x2xf32, strided<[8, 2], offset: 1>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c2) step (%c1, %c1) {
    %x = memref.load %v[%i, %j] : memref<3x2xf32, strided<[8, 2], offset: 1>>
    %y = arith.negf %x : f32
    memref.store %y, %v[%i, %j] : memref<3x2xf32, strided<[8, 2], offset: 1>>
  }
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
