// Unsupported op in a loop body: gpu.alloc, device memory allocated from
// inside what becomes the kernel. Before issue 13 this failed only in the
// device lowering, as "failed to legalize operation 'gpu.alloc'".
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @gpu_alloc(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'gpu.alloc' manages heap memory, which cannot live on the device; use memref.alloca for per-iteration scratch
    // expected-error @below {{cannot run on the device: 'gpu.alloc' manages heap memory}}
    %m = gpu.alloc () : memref<4xf32>
    %x = memref.load %m[%c0] : memref<4xf32>
    memref.store %x, %a[%i] : memref<?xf32>
  }
  return
}
