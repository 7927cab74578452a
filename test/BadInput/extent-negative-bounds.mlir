// Negative bounds: a loop from -2^40 - 3 to -2^40 + 4 (seven trips, the
// bounds passed in as values) and a 2-D one from (-2, -3) to (1, 0) with
// step (2, 1), static. The trip counts are computed signed; the induction
// values come out negative, as in the original.
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

// MAPPED-LABEL: func.func @negative
// MAPPED-COUNT-2: gpu.launch

func.func @negative(%a: memref<7xi32>, %b: memref<2x3xi32>, %lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cm2 = arith.constant -2 : index
  %cm3 = arith.constant -3 : index
  %c0 = arith.constant 0 : index
  scf.parallel (%i) = (%lo) to (%hi) step (%c1) {
    %j = arith.subi %i, %lo : index
    %d = arith.subi %hi, %i : index
    %v = arith.index_cast %d : index to i32
    memref.store %v, %a[%j] : memref<7xi32>
  }
  scf.parallel (%i, %j) = (%cm2, %cm3) to (%c1, %c0) step (%c2, %c1) {
    %r = arith.subi %i, %cm2 : index
    %row = arith.divsi %r, %c2 : index
    %col = arith.subi %j, %cm3 : index
    %p = arith.muli %i, %j : index
    %v = arith.index_cast %p : index to i32
    memref.store %v, %b[%row, %col] : memref<2x3xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// CHECK: sizes = [7]
// CHECK-NEXT: [7,  6,  5,  4,  3,  2,  1]
// CHECK: sizes = [2, 3]
// CHECK-NEXT: {{\[}}[6,   4,   2],
// CHECK-NEXT: [0,   0,   0]]
func.func @main() {
  %lo = arith.constant -1099511627779 : index
  %hi = arith.constant -1099511627772 : index
  %a = memref.alloc() : memref<7xi32>
  %b = memref.alloc() : memref<2x3xi32>
  call @negative(%a, %b, %lo, %hi) : (memref<7xi32>, memref<2x3xi32>, index, index) -> ()
  %ua = memref.cast %a : memref<7xi32> to memref<*xi32>
  call @printMemrefI32(%ua) : (memref<*xi32>) -> ()
  %ub = memref.cast %b : memref<2x3xi32> to memref<*xi32>
  call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<7xi32>
  memref.dealloc %b : memref<2x3xi32>
  return
}
