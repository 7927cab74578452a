// Non-memref operands: an scf.forall with shared_outs on tensors. Before
// issue 13 normalisation (upstream scf-forall-to-parallel) failed on it
// without any message and both tools just exited 1. Now
// threadbind-forall-to-parallel leaves it with a warning at the loop, and
// threadbind-compile, which cannot lower the tensor loop on the host,
// exits non-zero and writes nothing.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @fill(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %f = arith.constant 1.0 : f32
  // CHECK: .mlir:[[@LINE+2]]:8: warning: left on the host: its shared_outs are tensors; bufferize them to memrefs for it to be bound to the GPU
  // expected-warning @below {{left on the host: its shared_outs are tensors; bufferize them to memrefs for it to be bound to the GPU}}
  %r = scf.forall (%i) in (%n) shared_outs(%o = %a) -> (tensor<?xf32>) {
    %t = tensor.from_elements %f : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
    }
  }
  return %r : tensor<?xf32>
}
