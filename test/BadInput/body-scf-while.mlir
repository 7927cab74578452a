// Valid but unusual: an scf.while in the loop body, a data-dependent
// number of trips per iteration. It maps, runs on the CPU through the
// gpu.launch emulation exactly as the original does, and compiles to PTX.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @doubling
// MAPPED: gpu.launch
// MAPPED: scf.while
// MAPPED-LABEL: func.func @main
// MAPPED-NOT: gpu.launch
// PTX: .entry

func.func @doubling(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %limit = arith.constant 100 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xi32>
    %r = scf.while (%v = %x) : (i32) -> i32 {
      %more = arith.cmpi slt, %v, %limit : i32
      scf.condition(%more) %v : i32
    } do {
    ^bb0(%v: i32):
      %twice = arith.addi %v, %v : i32
      %next = arith.addi %twice, %one : i32
      scf.yield %next : i32
    }
    memref.store %r, %a[%i] : memref<?xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// CHECK: sizes = [7]
// CHECK-NEXT: [127,  127,  191,  127,  159,  191,  111]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %a = memref.alloc(%c7) : memref<?xi32>
  scf.for %i = %c0 to %c7 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %a[%i] : memref<?xi32>
  }
  call @doubling(%a, %c7) : (memref<?xi32>, index) -> ()
  %u = memref.cast %a : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<?xi32>
  return
}
