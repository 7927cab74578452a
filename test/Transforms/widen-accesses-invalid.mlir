// Options out of range stop the pass before it changes anything.
// RUN: not threadbind-opt %s -threadbind-widen-accesses=vector-bytes=12 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not threadbind-opt %s -threadbind-widen-accesses=unroll=0 2>&1 | FileCheck %s --check-prefix=UNROLL

// BYTES: error: vector-bytes must be 4, 8 or 16, not 12
// UNROLL: error: unroll must be at least 1

func.func @untouched(%a: memref<?xf32>) {
  return
}
