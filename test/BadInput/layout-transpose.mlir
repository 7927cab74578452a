// Non-identity layout from memref.transpose: the loop walks the transposed
// view (its unit stride is now on the first dimension), so the access
// analysis puts loop dimension 0 on threadIdx.x.
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
// MAPPED: memref.transpose
// MAPPED: gpu.launch
// CHECK: sizes = [4, 6]
// CHECK-NEXT: {{\[}}[0,   2,   4,   6,   8,   10],
// CHECK-NEXT: [6,   8,   10,   12,   14,   16],
// CHECK-NEXT: [12,   14,   16,   18,   20,   22],
// CHECK-NEXT: [18,   20,   22,   24,   26,   28]]

func.func @run(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %t = memref.transpose %a (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
  // t[j, i] = a[i, j] + j: column j of a gains j.
  scf.parallel (%j, %i) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %t[%j, %i] : memref<?x?xf32, strided<[1, ?]>>
    %jj = arith.index_cast %j : index to i32
    %jf = arith.sitofp %jj : i32 to f32
    %y = arith.addf %x, %jf : f32
    memref.store %y, %t[%j, %i] : memref<?x?xf32, strided<[1, ?]>>
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
