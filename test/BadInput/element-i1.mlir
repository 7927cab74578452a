// Unusual element type: memref<?xi1>, one byte an element in memory on
// both sides, negated with arith.xori in the loop body. Widening must not
// take i1 for a byte-sized element it can pack.
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
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// MAPPED-LABEL: func.func @flip
// MAPPED: gpu.launch
// CHECK: sizes = [9]
// CHECK-NEXT: [1,  0,  0,  1,  0,  0,  1,  0,  0]

func.func @flip(%a: memref<?xi1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xi1>
    %y = arith.xori %x, %true : i1
    memref.store %y, %a[%i] : memref<?xi1>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %a = memref.alloc(%c9) : memref<?xi1>
  scf.for %k = %c0 to %c9 step %c1 {
    %r = arith.remui %k, %c3 : index
    %b = arith.cmpi ne, %r, %c0 : index
    memref.store %b, %a[%k] : memref<?xi1>
  }
  call @flip(%a, %c9) : (memref<?xi1>, index) -> ()
  %out = memref.alloc(%c9) : memref<?xi32>
  scf.for %k = %c0 to %c9 step %c1 {
    %b = memref.load %a[%k] : memref<?xi1>
    %w = arith.extui %b : i1 to i32
    memref.store %w, %out[%k] : memref<?xi32>
  }
  %u = memref.cast %out : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
