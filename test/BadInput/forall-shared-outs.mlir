// An scf.forall with shared_outs on tensors, a one-element tensor made in
// each iteration. Before issue 23 it was left on the host with a warning
// and threadbind-compile failed; now bufferization gives the forall the
// argument's buffer, the small tensor becomes per-thread stack scratch
// (memref.alloca, not heap memory a kernel cannot allocate), and the loop
// is bound.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// MAPPED-LABEL: func.func @fill(%{{.*}}: memref<?xf32>, %{{.*}}: index) {
// MAPPED: gpu.launch
// MAPPED: memref.alloca() {{.*}} : memref<1xf32>
// MAPPED-NOT: memref.alloc(
// PTX: .entry fill_kernel

func.func @fill(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %f = arith.constant 1.0 : f32
  %r = scf.forall (%i) in (%n) shared_outs(%o = %a) -> (tensor<?xf32>) {
    %t = tensor.from_elements %f : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
    }
  }
  return %r : tensor<?xf32>
}
