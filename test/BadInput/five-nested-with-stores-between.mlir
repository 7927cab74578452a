// Five nested levels with a store between each level and the next: the
// code between has side effects, so nothing merges and no level runs a
// block a row; the outer loop is bound and the four inside run
// sequentially in each thread, which keeps the order of the stores.
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

// MAPPED-LABEL: func.func @nest
// MAPPED-COUNT-1: gpu.launch
// MAPPED-COUNT-4: scf.parallel
// REMARK: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x
// CHECK: sizes = [243]

func.func @nest(%a: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c27 = arith.constant 27 : index
  %c81 = arith.constant 81 : index
  %c1i = arith.constant 1 : i32
  %c2i = arith.constant 2 : i32
  %c3i = arith.constant 3 : i32
  %c4i = arith.constant 4 : i32
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    %p0 = arith.muli %i, %c81 : index
    memref.store %c1i, %a[%p0] : memref<?xi32>
    scf.parallel (%j) = (%c0) to (%c3) step (%c1) {
      %p1 = arith.muli %j, %c27 : index
      %q1 = arith.addi %p0, %p1 : index
      %w1 = memref.load %a[%q1] : memref<?xi32>
      %x1 = arith.addi %w1, %c1i : i32
      memref.store %x1, %a[%q1] : memref<?xi32>
      scf.parallel (%k) = (%c0) to (%c3) step (%c1) {
        %p2 = arith.muli %k, %c9 : index
        %q2 = arith.addi %q1, %p2 : index
        memref.store %c2i, %a[%q2] : memref<?xi32>
        scf.parallel (%l) = (%c0) to (%c3) step (%c1) {
          %p3 = arith.muli %l, %c3 : index
          %q3 = arith.addi %q2, %p3 : index
          memref.store %c3i, %a[%q3] : memref<?xi32>
          scf.parallel (%m) = (%c0) to (%c3) step (%c1) {
            %pos = arith.addi %q3, %m : index
            %old = memref.load %a[%pos] : memref<?xi32>
            %new = arith.addi %old, %c4i : i32
            memref.store %new, %a[%pos] : memref<?xi32>
          }
        }
      }
    }
  }
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
