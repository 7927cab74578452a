// Five nested levels as five scf.parallel loops, each bound by the
// induction variable of the one around it (a simplex), so canonicalization
// cannot merge them: the outermost runs one iteration a block, the second
// over the block's threads, and the three inside run sequentially in each
// thread.
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
// MAPPED-COUNT-3: scf.parallel
// REMARK: remark: bound to gpu.launch: one iteration per block, nested loop dimension 0 on threadIdx.x
// CHECK: sizes = [243]

func.func @nest(%a: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c27 = arith.constant 27 : index
  %c81 = arith.constant 81 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    %ui = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%ui) step (%c1) {
      %uj = arith.addi %j, %c1 : index
      scf.parallel (%k) = (%c0) to (%uj) step (%c1) {
        %uk = arith.addi %k, %c1 : index
        scf.parallel (%l) = (%c0) to (%uk) step (%c1) {
          %ul = arith.addi %l, %c1 : index
          scf.parallel (%m) = (%c0) to (%ul) step (%c1) {
            %p0 = arith.muli %i, %c81 : index
            %p1 = arith.muli %j, %c27 : index
            %p2 = arith.muli %k, %c9 : index
            %p3 = arith.muli %l, %c3 : index
            %q0 = arith.addi %p0, %p1 : index
            %q1 = arith.addi %q0, %p2 : index
            %q2 = arith.addi %q1, %p3 : index
            %pos = arith.addi %q2, %m : index
            %v0 = arith.muli %pos, %c10 : index
            %v1 = arith.addi %v0, %m : index
            %v = arith.index_cast %v1 : index to i32
            memref.store %v, %a[%pos] : memref<?xi32>
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
