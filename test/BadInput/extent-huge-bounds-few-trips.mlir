// Static huge bounds with few iterations: 0 to 2^62 by 2^61 (two trips)
// and 2^62 to 2^62 + 5 by 1 (five trips). The trip counts, not the bounds,
// size the launch; induction values stay exact in 64 bits.
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

// MAPPED-LABEL: func.func @huge
// MAPPED-COUNT-2: gpu.launch

func.func @huge(%a: memref<2xi32>, %b: memref<5xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2p61 = arith.constant 2305843009213693952 : index
  %c2p62 = arith.constant 4611686018427387904 : index
  %end = arith.constant 4611686018427387909 : index
  scf.parallel (%i) = (%c0) to (%c2p62) step (%c2p61) {
    %j = arith.divui %i, %c2p61 : index
    %k = arith.addi %j, %c1 : index
    %v = arith.index_cast %k : index to i32
    memref.store %v, %a[%j] : memref<2xi32>
  }
  scf.parallel (%i) = (%c2p62) to (%end) step (%c1) {
    %j = arith.subi %i, %c2p62 : index
    %w = arith.muli %j, %j : index
    %v = arith.index_cast %w : index to i32
    memref.store %v, %b[%j] : memref<5xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// CHECK: sizes = [2]
// CHECK-NEXT: [1,  2]
// CHECK: sizes = [5]
// CHECK-NEXT: [0,  1,  4,  9,  16]
func.func @main() {
  %a = memref.alloc() : memref<2xi32>
  %b = memref.alloc() : memref<5xi32>
  call @huge(%a, %b) : (memref<2xi32>, memref<5xi32>) -> ()
  %ua = memref.cast %a : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%ua) : (memref<*xi32>) -> ()
  %ub = memref.cast %b : memref<5xi32> to memref<*xi32>
  call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
  memref.dealloc %a : memref<2xi32>
  memref.dealloc %b : memref<5xi32>
  return
}
