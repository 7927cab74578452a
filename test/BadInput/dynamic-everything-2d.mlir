// Dynamic everything, 2-D: lower bounds, upper bounds, steps and the
// memref shape are all run-time values, called with a step larger than the
// extent, an empty range (lower bound past the upper one), a one-wide
// range, and an ordinary one.
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

// MAPPED-LABEL: func.func @window
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel

func.func @window(%a: memref<?x?xf32>, %lb0: index, %lb1: index, %ub0: index, %ub1: index, %s0: index, %s1: index, %v: f32) {
  scf.parallel (%i, %j) = (%lb0, %lb1) to (%ub0, %ub1) step (%s0, %s1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.addf %x, %v : f32
    memref.store %y, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [5, 7]
// CHECK-NEXT: {{\[}}[0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT: [0,   1,   0,   0,   1000,   1000,   1000],
// CHECK-NEXT: [0,   0,   0,   0,   1000,   1000,   1000],
// CHECK-NEXT: [0,   0,   0,   0,   1000,   1000,   1000],
// CHECK-NEXT: [0,   0,   0,   0,   100,   0,   100]]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ten = arith.constant 10.0 : f32
  %hundred = arith.constant 100.0 : f32
  %thousand = arith.constant 1000.0 : f32
  %a = memref.alloc(%c5, %c7) : memref<?x?xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c7 step %c1 {
      memref.store %zero, %a[%i, %j] : memref<?x?xf32>
    }
  }
  // Steps larger than the extents: only (1, 1).
  call @window(%a, %c1, %c1, %c2, %c3, %c9, %c9, %one) : (memref<?x?xf32>, index, index, index, index, index, index, f32) -> ()
  // Lower bound past the upper one: nothing.
  call @window(%a, %c4, %c0, %c2, %c7, %c1, %c1, %ten) : (memref<?x?xf32>, index, index, index, index, index, index, f32) -> ()
  // One row wide, every other column: (4, 4) and (4, 6).
  call @window(%a, %c4, %c4, %c5, %c7, %c1, %c2, %hundred) : (memref<?x?xf32>, index, index, index, index, index, index, f32) -> ()
  // Rows 1 to 3, columns 4 to 6.
  call @window(%a, %c1, %c4, %c4, %c7, %c1, %c1, %thousand) : (memref<?x?xf32>, index, index, index, index, index, index, f32) -> ()
  %u = memref.cast %a : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x?xf32>
  return
}
