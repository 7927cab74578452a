// Unusual element type: memref<?xindex>, a buffer of indices (64-bit on
// both the host and the device, where index arithmetic stays 64-bit),
// holding values past 2^32.
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

// MAPPED-LABEL: func.func @gather_index
// MAPPED: gpu.launch
// MAPPED: memref.load {{.*}} : memref<?xindex>
// CHECK: sizes = [4]
// CHECK-NEXT: [4294967296,  4294967299,  4294967302,  4294967305]

func.func @gather_index(%a: memref<?xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %big = arith.constant 4294967296 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xindex>
    %y = arith.muli %x, %c3 : index
    %z = arith.addi %y, %big : index
    memref.store %z, %a[%i] : memref<?xindex>
  }
  return
}

func.func private @printMemrefI64(memref<*xi64>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc(%c4) : memref<?xindex>
  scf.for %k = %c0 to %c4 step %c1 {
    memref.store %k, %a[%k] : memref<?xindex>
  }
  call @gather_index(%a, %c4) : (memref<?xindex>, index) -> ()
  %out = memref.alloc(%c4) : memref<?xi64>
  scf.for %k = %c0 to %c4 step %c1 {
    %v = memref.load %a[%k] : memref<?xindex>
    %w = arith.index_cast %v : index to i64
    memref.store %w, %out[%k] : memref<?xi64>
  }
  %u = memref.cast %out : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}
