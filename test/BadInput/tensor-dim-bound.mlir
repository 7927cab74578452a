// Tensor operands used only on the host: the loop's bound is the size of a
// tensor argument (tensor.dim), the body touches memrefs alone. The tensor
// argument is bufferized to a memref whose size bounds the loop, and never
// reaches the kernel's data.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// MAPPED-LABEL: func.func @sized_by_tensor(
// MAPPED-SAME: %[[T:.*]]: memref<?x4xf32>
// MAPPED: %[[N:.*]] = memref.dim %[[T]]
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
