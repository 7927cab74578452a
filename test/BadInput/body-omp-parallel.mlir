// Unsupported op in a loop body: omp.parallel, which lowers to calls into
// the OpenMP host runtime (__kmpc_fork_call). Before issue 22 the kernel's
// PTX called __kmpc_* and threadbind-compile exited 0.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @omp_body(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot run on the device: 'omp.parallel' needs the omp host runtime
    // expected-error @below {{'omp.parallel' needs the omp host runtime}}
    omp.parallel {
      memref.store %f, %a[%i] : memref<?xf32>
      omp.terminator
    }
  }
  return
}
