// RUN: threadbind-opt %s -threadbind-allow-fp-contraction | FileCheck %s

// Float multiplies and adds in kernels may fuse; host code keeps its own
// rounding, and flags already there stay.
// CHECK-LABEL: func.func @mixed
// CHECK: %[[HOST:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: gpu.launch
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: gpu.terminator
// CHECK-LABEL: gpu.func @kernel
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f64
func.func @mixed(%a: memref<4xf32>, %x: f32) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %h = arith.mulf %x, %x : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%c0] : memref<4xf32>
    %m = arith.mulf %v, %h : f32
    %s = arith.addf %m, %v : f32
    %d = arith.subf %s, %v fastmath<nnan> : f32
    %q = arith.divf %d, %v : f32
    memref.store %q, %a[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

gpu.module @kernels {
  gpu.func @kernel(%a: f64, %b: f64) kernel {
    %s = arith.addf %a, %b : f64
    gpu.return
  }
}
