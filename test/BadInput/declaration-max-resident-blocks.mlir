// Functions without bodies that ThreadBind itself relies on: the module
// declares threadbind_max_resident_blocks, the grid-size query of
// grid-stride launches, with the right type. The mapping uses that
// declaration instead of adding a second one, and the compile succeeds.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// RUN: threadbind-compile %s -o %t.ptx

// MAPPED-COUNT-1: func.func private @threadbind_max_resident_blocks(index) -> index
// MAPPED-NOT: func.func private @threadbind_max_resident_blocks
// MAPPED-LABEL: func.func @fill
// MAPPED: call @threadbind_max_resident_blocks
// MAPPED: gpu.launch
// CHECK: [1,  1,  1,  1,  1]

func.func private @threadbind_max_resident_blocks(index) -> index

func.func @fill(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c5 = arith.constant 5 : index
  %a = memref.alloc(%c5) : memref<?xf32>
  call @fill(%a, %c5) : (memref<?xf32>, index) -> ()
  %u = memref.cast %a : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  return
}
