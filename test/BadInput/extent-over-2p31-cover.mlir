// Extent over the grid limit under grid-policy=cover: 2^31 + 5 iterations
// with one-thread blocks need more than the 2^31 - 1 blocks a grid can
// have, and a cover launch gives each iteration one guarded visit. Before
// issue 13 the grid was silently capped and the last 6 iterations never
// ran; now it is an error at the loop, with the way out.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover block-shape=1" -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --grid-policy=cover --block-shape=1 -o %t.ptx 2>&1 | FileCheck %s
// The same loop with 256-thread blocks fits, and maps.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover" | FileCheck %s --check-prefix=FITS

// FITS: %[[BLOCKS:.*]] = arith.constant 8388609 : index
// FITS: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %[[BLOCKS]],
// FITS: threadbind.tail_guard

func.func @fill(%a: memref<2147483653xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2147483653 : index
  %v = arith.constant 7 : i8
  // CHECK: .mlir:[[@LINE+2]]:3: error: 'scf.parallel' op needs 2147483653 blocks along x under grid-policy=cover (a thread an iteration, 1 a block), but a grid has at most 2147483647; grid-policy=grid-stride loops over any extent
  // expected-error @below {{'scf.parallel' op needs 2147483653 blocks along x under grid-policy=cover (a thread an iteration, 1 a block), but a grid has at most 2147483647}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<2147483653xi8>
  }
  return
}
