// RUN: threadbind-opt %s -threadbind-forall-to-parallel -split-input-file -verify-diagnostics | FileCheck %s

// A forall on memrefs becomes an scf.parallel over the same space.
// CHECK-LABEL: func.func @on_memrefs
// CHECK-NOT: scf.forall
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
func.func @on_memrefs(%a: memref<?x?xf32>, %m: index, %n: index) {
  %f = arith.constant 1.0 : f32
  scf.forall (%i, %j) in (%m, %n) {
    memref.store %f, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// One with shared_outs works on tensors: a warning, and it stays; the
// forall on memrefs beside it is still converted.
// CHECK-LABEL: func.func @on_tensors
// CHECK: scf.forall
// CHECK: shared_outs
// CHECK: scf.parallel
func.func @on_tensors(%t: tensor<?xf32>, %a: memref<?xf32>, %n: index) -> tensor<?xf32> {
  %f = arith.constant 1.0 : f32
  // expected-warning @below {{left on the host: its shared_outs are tensors; bufferize them to memrefs for it to be bound to the GPU}}
  %r = scf.forall (%i) in (%n) shared_outs(%o = %t) -> (tensor<?xf32>) {
    %e = tensor.from_elements %f : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
    }
  }
  scf.forall (%i) in (%n) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return %r : tensor<?xf32>
}
