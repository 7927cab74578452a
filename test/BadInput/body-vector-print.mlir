// Unsupported op in a loop body: vector.print, which lowers to calls into
// the host runtime. Before issue 13 the device lowering failed with
// "'llvm.call' op 'printF32' does not reference a symbol".
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @prints(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:5: error: cannot run on the device: 'vector.print' prints through the host runtime; use gpu.printf
    // expected-error @below {{'vector.print' prints through the host runtime; use gpu.printf}}
    vector.print %x : f32
  }
  return
}
