// Unsupported op in a loop body: gpu.shuffle, which is pure, so nothing
// stopped it before issue 13; it exchanged values between whichever
// iterations the mapping put in one warp.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @shuffle(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %offset = arith.constant 1 : i32
  %width = arith.constant 32 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:15: error: cannot run on the device: 'gpu.shuffle' would refer to the launch that the mapping creates
    // expected-error @below {{'gpu.shuffle' would refer to the launch that the mapping creates}}
    %y, %ok = gpu.shuffle xor %x, %offset, %width : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
