// Extent over the grid limit in z: a 70000 x 2 x 3 loop with one-thread
// blocks and its long dimension forced onto z needs 70000 blocks along z,
// past the 65535 a grid has there. The grid is capped and the threads loop
// over the rest; the emulated run prints what the original prints.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=1,1,1 dim-order=2,1,0 grid-policy=cover" > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s --block-shape=1,1,1 --dim-order=2,1,0 --grid-policy=cover -o %t.ptx

// MAPPED-LABEL: func.func @boxes
// MAPPED-DAG: %[[X:.*]] = arith.constant 3 : index
// MAPPED-DAG: %[[Y:.*]] = arith.constant 2 : index
// MAPPED-DAG: %[[Z:.*]] = arith.constant 65535 : index
// MAPPED: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %[[X]], %{{.*}} = %[[Y]], %{{.*}} = %[[Z]])

func.func @boxes(%a: memref<70000x2x3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 70000 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %c2, %c3) step (%c1, %c1, %c1) {
    %s = arith.addi %i, %j : index
    %t = arith.addi %s, %k : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %a[%i, %j, %k] : memref<70000x2x3xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// The sum over every element and the last element: each written once.
// CHECK: sizes = [2]
// CHECK-NEXT: [1815518112,  70002]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 70000 : index
  %last = arith.constant 69999 : index
  %minus = arith.constant -1 : i32
  %zero = arith.constant 0 : i32
  %a = memref.alloc() : memref<70000x2x3xi32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      scf.for %k = %c0 to %c3 step %c1 {
        memref.store %minus, %a[%i, %j, %k] : memref<70000x2x3xi32>
      }
    }
  }
  call @boxes(%a) : (memref<70000x2x3xi32>) -> ()
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc0 = %zero) -> i32 {
    %r = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc1 = %acc0) -> i32 {
      %q = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc2 = %acc1) -> i32 {
        %v = memref.load %a[%i, %j, %k] : memref<70000x2x3xi32>
        %next = arith.addi %acc2, %v : i32
        scf.yield %next : i32
      }
      scf.yield %q : i32
    }
    scf.yield %r : i32
  }
  %out = memref.alloc() : memref<2xi32>
  memref.store %sum, %out[%c0] : memref<2xi32>
  %e = memref.load %a[%last, %c1, %c2] : memref<70000x2x3xi32>
  memref.store %e, %out[%c1] : memref<2xi32>
  %u = memref.cast %out : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<70000x2x3xi32>
  memref.dealloc %out : memref<2xi32>
  return
}
