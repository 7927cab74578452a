// A tensor built and read in every iteration of a parallel loop (not
// foldable: the read index varies). Before issue 23 it was an error at the
// op; bufferization now places the small tensor on the thread's stack
// (memref.alloca), so the loop is bound and compiles.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// MAPPED: gpu.launch
// MAPPED: memref.alloca() {{.*}} : memref<2xf32>
// MAPPED-NOT: tensor.
// PTX: .entry tensor_in_body_kernel

func.func @tensor_in_body(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %t = tensor.from_elements %x, %x : tensor<2xf32>
    %j = arith.remui %i, %c2 : index
    %y = tensor.extract %t[%j] : tensor<2xf32>
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
