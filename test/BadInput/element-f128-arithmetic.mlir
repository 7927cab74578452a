// Unsupported element type: f128 arithmetic in the loop body. Before issue
// 13 it reached the NVPTX backend, which aborted the compiler ("LLVM ERROR:
// unsupported library call operation", a stack dump). Loading and storing
// f128 is fine (element-unusual-moves.mlir); computing on it is an error
// at the op.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @quad(%a: memref<?xf128>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf128>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'arith.addf' computes on 'f128', which kernels can load and store but compute on only as f16, bf16, f32 or f64
    // expected-error @below {{'arith.addf' computes on 'f128', which kernels can load and store but compute on only as f16, bf16, f32 or f64}}
    %y = arith.addf %x, %x : f128
    memref.store %y, %a[%i] : memref<?xf128>
  }
  return
}
