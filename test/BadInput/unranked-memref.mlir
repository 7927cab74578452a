// Non-ranked operands: an unranked memref (memref<*xf32>) captured by the
// loop and cast to a ranked one inside the body. It is a kernel argument
// like any memref; the mapping runs as the original does and compiles.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @through_unranked
// MAPPED: gpu.launch
// MAPPED: memref.cast %{{.*}} : memref<*xf32> to memref<?xf32>
// PTX: .entry through_unranked_kernel

func.func @through_unranked(%u: memref<*xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.cast %u : memref<*xf32> to memref<?xf32>
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [5]
// CHECK-NEXT: [0,  1,  4,  9,  16]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %a = memref.alloc(%c5) : memref<?xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %a[%i] : memref<?xf32>
  }
  %u = memref.cast %a : memref<?xf32> to memref<*xf32>
  call @through_unranked(%u, %c5) : (memref<*xf32>, index) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  return
}
