// Unsupported op in a loop body: a gpu.launch_func, a kernel launched from
// every iteration of what would become a kernel itself.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @launches(%a: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      // CHECK: .mlir:[[@LINE+2]]:7: error: cannot bind the enclosing loop to the GPU: its body already launches a kernel
      // expected-error @below {{cannot bind the enclosing loop to the GPU: its body already launches a kernel}}
      gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    }
    return
  }
}
