// Bad option values: --mapper=upstream-tiled with a negative tile size.
// Upstream's scf-parallel-loop-tiling reports "division by non-positive
// value is not supported" at each loop but does not fail, so
// threadbind-compile went on and exited 0 with a PTX file. It now refuses
// the flag before compiling and writes nothing.
// RUN: %refused threadbind-compile %s --mapper=upstream-tiled --upstream-tile=-4 -o %t.ptx 2>&1 | FileCheck %s

// CHECK: error: --upstream-tile sizes must be positive, not -4

func.func @fill(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
