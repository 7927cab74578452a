// An scf.forall whose body holds a gpu.launch written by hand: after
// normalisation it is an scf.parallel that already launches a kernel in
// every iteration, which cannot be bound again. The error is at the launch.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @launch_per_row(%a: memref<?x?xf32>, %m: index, %n: index) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.forall (%i) in (%m) {
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot bind the enclosing loop to the GPU: its body already launches a kernel
    // expected-error @below {{cannot bind the enclosing loop to the GPU: its body already launches a kernel}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      memref.store %f, %a[%i, %tx] : memref<?x?xf32>
      gpu.terminator
    }
  }
  return
}
