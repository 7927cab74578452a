// Non-memref operands used only on the host: the loop's bound is the size
// of a tensor argument (tensor.dim, computed before the launch), the body
// touches memrefs alone. It binds and compiles; the tensor never reaches
// the kernel.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @sized_by_tensor
// MAPPED: %[[N:.*]] = tensor.dim
// MAPPED: gpu.launch
// MAPPED: scf.for %{{.*}} = %{{.*}} to %[[N]]
// MAPPED-NOT: tensor
// MAPPED: gpu.terminator
// PTX: .entry sized_by_tensor_kernel

func.func @sized_by_tensor(%t: tensor<?x4xf32>, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  %n = tensor.dim %t, %c0 : tensor<?x4xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
