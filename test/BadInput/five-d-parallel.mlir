// Five nested levels as one 5-D scf.parallel, with lower bounds, steps
// and extents that differ per dimension (1, 0, 2, 0, 1 / 1, 2, 1, 3, 1 /
// 2, 3, 2, 3, 3 trips), the upper bounds passed in. All but the two
// dimensions on x and y are linearised onto z.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu="max-blocks=3 remarks" 2> %t.remarks > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -threadbind-widen-accesses -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile %s -o %t.ptx

// MAPPED-LABEL: func.func @kernel
// MAPPED-COUNT-1: gpu.launch
// MAPPED: arith.remui
// MAPPED: arith.divui
// REMARK: remark: bound to gpu.launch: loop dimension 4 on threadIdx.x {{.*}}; dimensions {{.*}} linearised onto z
// CHECK: sizes = [243]
// CHECK-NEXT: [10201,  10202,  10203,  10231,

func.func @kernel(%a: memref<?xi32>, %u0: index, %u1: index, %u2: index, %u3: index, %u4: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j, %k, %l, %m) = (%c1, %c0, %c2, %c0, %c1) to (%u0, %u1, %u2, %u3, %u4) step (%c1, %c2, %c1, %c3, %c1) {
    // Position: ((((i-1)*3 + j/2)*2 + (k-2))*3 + l/3)*3 + (m-1).
    %i0 = arith.subi %i, %c1 : index
    %j0 = arith.divui %j, %c2 : index
    %k0 = arith.subi %k, %c2 : index
    %l0 = arith.divui %l, %c3 : index
    %m0 = arith.subi %m, %c1 : index
    %p0 = arith.muli %i0, %c3 : index
    %p1 = arith.addi %p0, %j0 : index
    %p2 = arith.muli %p1, %c2 : index
    %p3 = arith.addi %p2, %k0 : index
    %p4 = arith.muli %p3, %c3 : index
    %p5 = arith.addi %p4, %l0 : index
    %p6 = arith.muli %p5, %c3 : index
    %pos = arith.addi %p6, %m0 : index
    // Value: the digits i j k l m.
    %v0 = arith.muli %i, %c10 : index
    %v1 = arith.addi %v0, %j : index
    %v2 = arith.muli %v1, %c10 : index
    %v3 = arith.addi %v2, %k : index
    %v4 = arith.muli %v3, %c10 : index
    %v5 = arith.addi %v4, %l : index
    %v6 = arith.muli %v5, %c10 : index
    %v7 = arith.addi %v6, %m : index
    %v = arith.index_cast %v7 : index to i32
    memref.store %v, %a[%pos] : memref<?xi32>
  }
  return
}

func.func @nest(%a: memref<?xi32>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  call @kernel(%a, %c3, %c5, %c4, %c7, %c4) : (memref<?xi32>, index, index, index, index, index) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// Prints every cell of a 243-cell buffer, after filling it with -1 and
// running @nest on it.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c243 = arith.constant 243 : index
  %minus = arith.constant -1 : i32
  %a = memref.alloc(%c243) : memref<?xi32>
  scf.for %i = %c0 to %c243 step %c1 {
    memref.store %minus, %a[%i] : memref<?xi32>
  }
  call @nest(%a) : (memref<?xi32>) -> ()
  %u = memref.cast %a : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<?xi32>
  return
}
