// A static zero-trip scf.parallel, (0) to (0), through threadbind-compile.
// Canonicalization folds it away before mapping, which used to leave the
// driver saying "nothing to map" and exiting 1. A program whose loops run
// no iterations is valid: it compiles (with a warning at the loop) to PTX
// with no kernel, and a manifest with no kernels.
// (Issue 13 asked for this test to be XFAIL until threadbind-compile was
// fixed; the fix landed first, in d8761de.)
// RUN: threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.ptx.manifest.json

// WARN: .mlir:[[@LINE+8]]:3: warning: no parallel loop is left to map: each runs no iteration
// PTX-NOT: .entry
// MANIFEST: "kernels": []

func.func @nothing(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c0) step (%c1) {
    memref.store %one, %a[%i] : memref<?xf32>
  }
  return
}
