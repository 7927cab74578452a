// Valid but unusual: a constant memref.global read through
// memref.get_global in the loop body. Outlining copies the global into the
// kernels' module, so the PTX holds the table.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @lookup
// MAPPED: gpu.launch
// MAPPED: memref.get_global @table
// PTX: .global .align {{[0-9]+}} .b8 table

memref.global "private" constant @table : memref<4xf32> = dense<[1.5, 2.5, 3.5, 4.5]>

func.func @lookup(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.get_global @table : memref<4xf32>
    %j = arith.remui %i, %c4 : index
    %x = memref.load %t[%j] : memref<4xf32>
    memref.store %x, %a[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [6]
// CHECK-NEXT: [1.5,  2.5,  3.5,  4.5,  1.5,  2.5]
func.func @main() {
  %c6 = arith.constant 6 : index
  %a = memref.alloc(%c6) : memref<?xf32>
  call @lookup(%a, %c6) : (memref<?xf32>, index) -> ()
  %u = memref.cast %a : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  return
}
