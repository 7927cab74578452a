// Extent over the grid limit under grid-policy=cover, for a nest run one
// outer iteration per block (the inner bound depends on the row): 2^32 rows
// need a block each, more than a grid can have. Before issue 13 the rows
// past 2^31 - 1 were silently dropped.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover" -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s --grid-policy=cover -o %t.ptx 2>&1 | FileCheck %s
// Under grid-stride the same nest loops over the rows, and maps.
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=STRIDE

// STRIDE: gpu.launch
// STRIDE: threadbind.grid_policy = "grid-stride"

func.func @triangle(%a: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %rows = arith.constant 4294967296 : index
  %v = arith.constant 1 : i8
  // CHECK: .mlir:[[@LINE+2]]:3: error: 'scf.parallel' op needs 4294967296 blocks along x under grid-policy=cover (a block an outer iteration), but a grid has at most 2147483647; grid-policy=grid-stride loops over any extent
  // expected-error @below {{'scf.parallel' op needs 4294967296 blocks along x under grid-policy=cover (a block an outer iteration)}}
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    %len = arith.remui %i, %c8 : index
    scf.parallel (%j) = (%c0) to (%len) step (%c1) {
      %k = arith.addi %i, %j : index
      memref.store %v, %a[%k] : memref<?xi8>
    }
  }
  return
}
