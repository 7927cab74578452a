// Valid but unusual: memref.alloca scratch in the loop body (the legal
// counterpart of memref.alloc, which is an error), with an inner scf.for
// filling and summing it.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @scratch
// MAPPED: gpu.launch
// MAPPED: memref.alloca() : memref<4xi32>
// PTX: .entry scratch_kernel

func.func @scratch(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.alloca() : memref<4xi32>
    scf.for %k = %c0 to %c4 step %c1 {
      %s = arith.addi %i, %k : index
      %v = arith.index_cast %s : index to i32
      memref.store %v, %t[%k] : memref<4xi32>
    }
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> i32 {
      %v = memref.load %t[%k] : memref<4xi32>
      %next = arith.addi %acc, %v : i32
      scf.yield %next : i32
    }
    memref.store %sum, %a[%i] : memref<?xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// CHECK: sizes = [5]
// CHECK-NEXT: [6,  10,  14,  18,  22]
func.func @main() {
  %c5 = arith.constant 5 : index
  %a = memref.alloc(%c5) : memref<?xi32>
  call @scratch(%a, %c5) : (memref<?xi32>, index) -> ()
  %u = memref.cast %a : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<?xi32>
  return
}
