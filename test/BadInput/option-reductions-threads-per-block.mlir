// Conflicting options: --threads-per-block=100 is a valid block for the loop
// mapping but not for a reduction, whose blocks must be whole warps. The
// error is at the reduction loop; nothing is written.
// RUN: threadbind-opt %s -threadbind-map-to-gpu=threads-per-block=100 -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --threads-per-block=100 -o %t.ptx 2>&1 | FileCheck %s

func.func @sum(%x: memref<?xf32>, %out: memref<1xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: .mlir:[[@LINE+2]]:8: error: 'scf.parallel' op cannot be mapped with 100 threads a block: a reduction's blocks must be whole warps, a multiple of 32 up to 1024
  // expected-error @below {{'scf.parallel' op cannot be mapped with 100 threads a block: a reduction's blocks must be whole warps}}
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}
