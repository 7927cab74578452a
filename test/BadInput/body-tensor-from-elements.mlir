// Unsupported op in a loop body: a tensor built and read in every
// iteration (not foldable: the read index varies). Before issue 13 this
// failed in the LLVM translation, at the same op but saying only that the
// tensor dialect has no translation.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @tensor_in_body(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'tensor.from_elements' makes a value of type 'tensor<2xf32>', which a kernel cannot hold: bufferize tensors to memrefs first
    // expected-error @below {{'tensor.from_elements' makes a value of type 'tensor<2xf32>', which a kernel cannot hold}}
    %t = tensor.from_elements %x, %x : tensor<2xf32>
    %j = arith.remui %i, %c2 : index
    %y = tensor.extract %t[%j] : tensor<2xf32>
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
