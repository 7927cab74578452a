// Non-identity affine-map layout that is strided: a 4x6 memref whose
// layout is affine_map<(d0, d1) -> (d1 * 4 + d0)> (column-major), a
// reinterpretation of the buffer made on the host. Such maps lower like
// strided<[1, 4]>.
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

// MAPPED-LABEL: func.func @fill
// MAPPED: gpu.launch
// MAPPED: memref.store {{.*}} : memref<4x6xf32, #map>
// CHECK: sizes = [4, 6]
// CHECK-NEXT: {{\[}}[100,   101,   102,   103,   104,   105],
// CHECK-NEXT: [106,   107,   108,   109,   110,   111],
// CHECK-NEXT: [112,   113,   114,   115,   116,   117],
// CHECK-NEXT: [118,   119,   120,   121,   122,   123]]

#col = affine_map<(d0, d1) -> (d1 * 4 + d0)>

func.func @fill(%c: memref<4x6xf32, #col>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %hundred = arith.constant 100.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c6) step (%c1, %c1) {
    %x = memref.load %c[%i, %j] : memref<4x6xf32, #col>
    %y = arith.addf %x, %hundred : f32
    memref.store %y, %c[%i, %j] : memref<4x6xf32, #col>
  }
  return
}

func.func @run(%a: memref<?x?xf32>) {
  %c = memref.reinterpret_cast %a to offset: [0], sizes: [4, 6], strides: [1, 4] : memref<?x?xf32> to memref<4x6xf32, strided<[1, 4]>>
  %m = memref.cast %c : memref<4x6xf32, strided<[1, 4]>> to memref<4x6xf32, #col>
  call @fill(%m) : (memref<4x6xf32, #col>) -> ()
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
