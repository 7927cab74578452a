// Non-memref operands next to memref ones: a function with a linalg op on
// tensors and an scf.parallel on memrefs. The tensor op stays on the host
// with a warning; the loop is bound and compiles.
// RUN: threadbind-opt %s -threadbind-map-to-gpu 2>&1 | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED: warning: left on the host: 'linalg.generic' works on tensors
// MAPPED-LABEL: func.func @mixed
// MAPPED: linalg.generic
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// WARN: .mlir:[[@LINE+9]]:8: warning: left on the host: 'linalg.generic' works on tensors
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
