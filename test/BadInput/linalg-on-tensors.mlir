// Non-memref operands: a linalg.generic on tensors, which has no memory for
// a kernel to write until it is bufferized. The mapping leaves it on the
// host with a warning at the op; threadbind-compile, left with nothing to
// map, also says so, exits non-zero and writes nothing. Before issue 13 the
// only message was "nothing to map" at the module.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

#id = affine_map<(d0) -> (d0)>

func.func @double(%a: tensor<?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: .mlir:[[@LINE+2]]:8: warning: left on the host: 'linalg.generic' works on tensors; bufferize them to memrefs for it to be bound to the GPU
  // expected-warning @below {{left on the host: 'linalg.generic' works on tensors; bufferize them to memrefs for it to be bound to the GPU}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// CHECK: error: nothing to map
