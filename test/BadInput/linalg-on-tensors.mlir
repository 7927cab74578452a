// Non-memref operands: a linalg.generic on tensors. Before issue 23 it
// stayed on the host with a warning and threadbind-compile found nothing to
// map; now the module is bufferized first (threadbind-bufferize-entries):
// the destination argument is written in place, the result is not returned
// again, and the loop is bound. Integration/Programs/softmax-tensors.mlir
// runs such code against the original.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// MAPPED-LABEL: func.func @double(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>) {
// MAPPED: gpu.launch
// MAPPED-NOT: tensor
// PTX: .entry double_kernel

#id = affine_map<(d0) -> (d0)>

func.func @double(%a: tensor<?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
