// Extent over the grid limit in y: a 2 x 70000 loop with one-thread blocks
// and its long dimension forced onto y needs 70000 blocks along y, past the 65535 a grid has there. The grid is
// capped and the threads loop over the rest, under both policies; the
// emulated runs print what the original prints.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=1,1 dim-order=0 max-blocks=1000000" > %t.stride.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.stride.mlir
// RUN: threadbind-opt %t.stride.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.stride
// RUN: diff %t.ref %t.stride
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=1,1 dim-order=0 grid-policy=cover" > %t.cover.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile %s --block-shape=1,1 --dim-order=0 -o %t.ptx

// MAPPED-LABEL: func.func @rows
// MAPPED-DAG: %[[X:.*]] = arith.constant 2 : index
// MAPPED-DAG: %[[Y:.*]] = arith.constant 65535 : index
// MAPPED: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %[[X]], %{{.*}} = %[[Y]],

func.func @rows(%a: memref<2x70000xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 70000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %n) step (%c1, %c1) {
    %s = arith.muli %i, %n : index
    %t = arith.addi %s, %j : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %a[%i, %j] : memref<2x70000xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// The sum of each row, and the last element of each, show every element
// was written once: 0 + ... + 69999 = 2449965000 wraps to -1845002296 in
// i32; the second row adds 70000 * 70000 = 4900000000 more.
// CHECK: sizes = [2]
// CHECK-NEXT: [-1845002296,  -1239969592]
// CHECK: sizes = [2]
// CHECK-NEXT: [69999,  139999]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 70000 : index
  %last = arith.constant 69999 : index
  %minus = arith.constant -1 : i32
  %zero = arith.constant 0 : i32
  %a = memref.alloc() : memref<2x70000xi32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %minus, %a[%i, %j] : memref<2x70000xi32>
    }
  }
  call @rows(%a) : (memref<2x70000xi32>) -> ()
  %sums = memref.alloc() : memref<2xi32>
  %ends = memref.alloc() : memref<2xi32>
  scf.for %i = %c0 to %c2 step %c1 {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> i32 {
      %v = memref.load %a[%i, %j] : memref<2x70000xi32>
      %next = arith.addi %acc, %v : i32
      scf.yield %next : i32
    }
    memref.store %s, %sums[%i] : memref<2xi32>
    %e = memref.load %a[%i, %last] : memref<2x70000xi32>
    memref.store %e, %ends[%i] : memref<2xi32>
  }
  %us = memref.cast %sums : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%us) : (memref<*xi32>) -> ()
  %ue = memref.cast %ends : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%ue) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<2x70000xi32>
  memref.dealloc %sums : memref<2xi32>
  memref.dealloc %ends : memref<2xi32>
  return
}
