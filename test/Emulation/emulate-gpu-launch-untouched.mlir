// A module where one launch can be emulated and another cannot: the pass
// fails and neither launch is rewritten.
// RUN: not threadbind-opt %s -threadbind-test-emulate-gpu-launch -mlir-print-ir-after-failure 2>&1 | FileCheck %s

// CHECK: error: cannot emulate 'gpu.barrier'
// CHECK: IR Dump After TestEmulateGPULaunchPass Failed
// CHECK-LABEL: func.func @fine
// CHECK: gpu.launch
// CHECK-LABEL: func.func @has_barrier
// CHECK: gpu.launch
// CHECK-NOT: scf.for
func.func @fine(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

func.func @has_barrier(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %f, %out[%tx] : memref<4xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
