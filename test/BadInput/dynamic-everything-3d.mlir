// Dynamic everything, 3-D: a memref<?x?x?xi32> with every bound and step
// passed in (steps 2, 1 and 3 from non-zero lower bounds), so no block
// dimension can be fitted to a static extent.
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

// MAPPED-LABEL: func.func @box
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel

func.func @box(%a: memref<?x?x?xi32>, %l0: index, %l1: index, %l2: index, %u0: index, %u1: index, %u2: index, %s0: index, %s1: index, %s2: index) {
  %c100 = arith.constant 100 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j, %k) = (%l0, %l1, %l2) to (%u0, %u1, %u2) step (%s0, %s1, %s2) {
    %p = arith.muli %i, %c100 : index
    %q = arith.muli %j, %c10 : index
    %r = arith.addi %p, %q : index
    %t = arith.addi %r, %k : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %a[%i, %j, %k] : memref<?x?x?xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// CHECK: sizes = [4, 3, 7]
// CHECK-NEXT: {{\[}}{{\[}}[0,    0,    0,    0,    0,    0,    0],
// CHECK-NEXT: [0,    0,    0,    0,    0,    0,    0],
// CHECK-NEXT: [0,    0,    0,    0,    0,    0,    0]],
// CHECK-NEXT: {{\[}}[0,    0,    0,    0,    0,    0,    0],
// CHECK-NEXT: [0,    111,    0,    0,    114,    0,    0],
// CHECK-NEXT: [0,    121,    0,    0,    124,    0,    0]],
// CHECK-NEXT: {{\[}}[0,    0,    0,    0,    0,    0,    0],
// CHECK-NEXT: [0,    0,    0,    0,    0,    0,    0],
// CHECK-NEXT: [0,    0,    0,    0,    0,    0,    0]],
// CHECK-NEXT: {{\[}}[0,    0,    0,    0,    0,    0,    0],
// CHECK-NEXT: [0,    311,    0,    0,    314,    0,    0],
// CHECK-NEXT: [0,    321,    0,    0,    324,    0,    0]]]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i32
  %a = memref.alloc(%c4, %c3, %c7) : memref<?x?x?xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %c7 step %c1 {
        memref.store %zero, %a[%i, %j, %k] : memref<?x?x?xi32>
      }
    }
  }
  call @box(%a, %c1, %c1, %c1, %c4, %c3, %c6, %c2, %c1, %c3) : (memref<?x?x?xi32>, index, index, index, index, index, index, index, index, index) -> ()
  %u = memref.cast %a : memref<?x?x?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<?x?x?xi32>
  return
}
