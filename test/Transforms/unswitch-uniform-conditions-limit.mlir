// With max-conditions=1 the first condition is hoisted and the second,
// now in both versions of the loop, stays: it is reported once per copy.
// RUN: threadbind-opt %s "-threadbind-unswitch-uniform-conditions=remarks max-conditions=1" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: threadbind-opt %s "-threadbind-unswitch-uniform-conditions=max-conditions=1" | FileCheck %s

// REMARK: limit.mlir:24:7: remark: unswitched: the condition is uniform
// REMARK-COUNT-2: limit.mlir:27:7: remark: not unswitched: max-conditions = 1 conditions were already hoisted from this kernel
// REMARK-NOT: remark

// CHECK: scf.if %{{.*}} {
// CHECK: scf.for
// CHECK: scf.if %[[OFF:.*]] {
// CHECK: } else {
// CHECK: scf.for
// CHECK: scf.if %[[OFF]] {
func.func @two(%a: memref<?xf32>, %n: index, %on: i1, %off: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      scf.if %on {
        memref.store %zero, %a[%i] : memref<?xf32>
      }
      scf.if %off {
        memref.store %one, %a[%i] : memref<?xf32>
      }
    }
    gpu.terminator
  }
  return
}
