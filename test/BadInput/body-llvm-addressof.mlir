// Unsupported op in a loop body: the address of a host llvm.mlir.global.
// Canonicalization hoists the (constant) llvm.mlir.addressof out of the
// loop, so the error is at the load that uses the host pointer.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

llvm.mlir.global internal @scale(3.0 : f32) : f32

func.func @host_global(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %p = llvm.mlir.addressof @scale : !llvm.ptr
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: it uses a value of type '!llvm.ptr' defined outside the loop, which a kernel cannot take as an argument
    // expected-error @below {{it uses a value of type '!llvm.ptr' defined outside the loop}}
    %x = llvm.load %p : !llvm.ptr -> f32
    memref.store %x, %a[%i] : memref<?xf32>
  }
  return
}
