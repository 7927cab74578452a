// Unsupported op in a loop body: memref.copy between strided views, which
// lowers to a call to the host runtime's memrefCopy.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @copy_columns(%a: memref<?x8xf32>, %b: memref<?x8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %s = memref.subview %a[%i, 0] [1, 4] [1, 2] : memref<?x8xf32> to memref<4xf32, strided<[2], offset: ?>>
    %d = memref.subview %b[%i, 0] [1, 4] [1, 2] : memref<?x8xf32> to memref<4xf32, strided<[2], offset: ?>>
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot run on the device: 'memref.copy' of memrefs that are not contiguous calls the host runtime; copy with loads and stores
    // expected-error @below {{'memref.copy' of memrefs that are not contiguous calls the host runtime}}
    memref.copy %s, %d : memref<4xf32, strided<[2], offset: ?>> to memref<4xf32, strided<[2], offset: ?>>
  }
  return
}
