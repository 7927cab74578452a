// Unsupported op in a loop body: an llvm dialect call to an external
// llvm.func.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

llvm.func @ext_scale(f32) -> f32

func.func @llvm_call(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'llvm.call' calls a host function
    // expected-error @below {{cannot run on the device: 'llvm.call' calls a host function}}
    %y = llvm.call @ext_scale(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
