// 0-size memrefs: a memref<0xf32> and a memref<?xf32> of size 0, the
// loops bounded by their sizes at run time (memref.dim of a dynamic
// memref, and a size passed in). Each launch has one block that runs no
// iteration; nothing is touched. A third memref of size 3 shows the
// launches ran and wrote where there was something.
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

// MAPPED-LABEL: func.func @empty
// MAPPED-COUNT-3: gpu.launch

func.func @empty(%z: memref<0xf32>, %d: memref<?xf32>, %w: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %one, %z[%i] : memref<0xf32>
  }
  %m = memref.dim %d, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %x = memref.load %d[%i] : memref<?xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %d[%i] : memref<?xf32>
  }
  %k = memref.dim %w, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%k) step (%c1) {
    memref.store %one, %w[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [3]
// CHECK-NEXT: [1,  1,  1]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %z = memref.alloc() : memref<0xf32>
  %d = memref.alloc(%c0) : memref<?xf32>
  %w = memref.alloc(%c3) : memref<?xf32>
  call @empty(%z, %d, %w, %c0) : (memref<0xf32>, memref<?xf32>, memref<?xf32>, index) -> ()
  %u = memref.cast %w : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %z : memref<0xf32>
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %w : memref<?xf32>
  return
}
