// A loop inside a gpu.func of a gpu.module written by hand is device code
// already: the mapping leaves the whole module as it is, and
// threadbind-compile, with nothing outside a kernel to bind, compiles the
// hand-written kernel as it stands.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=MAPPED
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED: gpu.func @fill
// MAPPED: scf.parallel
// MAPPED-LABEL: func.func @f
// MAPPED-NOT: gpu.launch blocks
// MAPPED: gpu.launch_func @kernels::@fill
// PTX: .entry fill(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%a: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %f = arith.constant 1.0 : f32
      scf.parallel (%i) = (%c0) to (%n) step (%c1) {
        memref.store %f, %a[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @f(%a: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %n : index)
    return
  }
}
