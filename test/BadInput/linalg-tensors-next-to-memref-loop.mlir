// Tensor operands next to memref ones: a function with a linalg op on
// tensors and an scf.parallel on memrefs. Since issue 23 the tensors are
// bufferized, so both loops are bound; the result is the destination
// argument, written in place, and is no longer returned.
// RUN: threadbind-opt %s -threadbind-map-to-gpu 2>&1 | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// MAPPED-NOT: warning
// MAPPED-LABEL: func.func @mixed(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: index) {
// MAPPED-COUNT-2: gpu.launch
// MAPPED-NOT: scf.parallel
// PTX: .entry mixed_kernel

#id = affine_map<(d0) -> (d0)>

func.func @mixed(%t: tensor<?xf32>, %init: tensor<?xf32>, %a: memref<?xf32>, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return %r : tensor<?xf32>
}
