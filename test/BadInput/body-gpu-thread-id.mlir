// Unsupported op in a loop body: gpu.thread_id. Before issue 13 it was
// bound silently and read the thread id of the launch the mapping made, a
// value that changed with --threads-per-block.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @thread_id(%a: memref<?xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'gpu.thread_id' would refer to the launch that the mapping creates, whose shape is the mapping's choice; write the gpu.launch by hand
    // expected-error @below {{'gpu.thread_id' would refer to the launch that the mapping creates}}
    %t = gpu.thread_id x
    memref.store %t, %a[%i] : memref<?xindex>
  }
  return
}
