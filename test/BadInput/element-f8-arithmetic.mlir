// Unsupported element type: f8E4M3FN arithmetic in the loop body. Before
// issue 13 the device lowering left an unrealized cast that the LLVM
// translation reported at the load. Extending to f32 first is no way
// out on the device either (arith.extf from f8 does not lower there), so
// the message says what kernels can do with f8: load and store it.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @fp8(%a: memref<?xf8E4M3FN>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf8E4M3FN>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'arith.mulf' computes on 'f8E4M3FN', which kernels can load and store but compute on only as f16, bf16, f32 or f64
    // expected-error @below {{'arith.mulf' computes on 'f8E4M3FN'}}
    %y = arith.mulf %x, %x : f8E4M3FN
    memref.store %y, %a[%i] : memref<?xf8E4M3FN>
  }
  return
}
