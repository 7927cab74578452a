// A reduction whose result reaches code its kernel cannot take (a store to
// the reduced memory before the result's store; a host loop that carries
// it) is still mapped: the kernel stores the result to a one-element
// device buffer, which is copied back to a host buffer the host code
// reads. Before, both were refused (and, with the fallback, ran on one
// GPU thread). Integration/Reductions/readback.mlir runs such code.
// RUN: threadbind-opt %s -threadbind-map-reductions=remarks -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @store_between
// CHECK: %[[SCRATCH:[^,]*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<1xf32>
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[SCRATCH]][%{{.*}}]
// CHECK: %[[HOST:.*]] = memref.alloca() {threadbind.host_readback} : memref<1xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[HOST]], %[[SCRATCH]]
// CHECK: %[[V:.*]] = memref.load %[[HOST]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[SCRATCH]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK: memref.store %[[V]], %{{.*}}[%{{.*}}] : memref<1xf32>
func.func @store_between(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{the reduced values come back to the host}}
  // expected-remark @below {{reduction mapped}}
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %zero, %x[%c0] : memref<?xf32>
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}

// -----

// CHECK-LABEL: func.func @yielded
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK: %[[HOST:.*]] = memref.alloca() {threadbind.host_readback} : memref<1xf32>
// CHECK: %[[V:.*]] = memref.load %[[HOST]]
// CHECK: scf.yield %[[V]] : f32
func.func @yielded(%x: memref<?xf32>, %out: memref<1xf32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.for %k = %c0 to %t step %c1 iter_args(%acc = %zero) -> f32 {
    // expected-remark @below {{the reduced values come back to the host}}
    // expected-remark @below {{reduction mapped}}
    %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%acc) -> f32 {
      %v = memref.load %x[%i] : memref<?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %m = arith.maximumf %a, %b : f32
        scf.reduce.return %m : f32
      }
    }
    scf.yield %r : f32
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}
