// A global the host takes the address of, or a view of one, is taken again
// inside each launch that uses it, so the kernel reads the copy outlining
// puts in the gpu.module; other values from above stay as they are.
// RUN: threadbind-opt %s -threadbind-sink-globals | FileCheck %s
// RUN: threadbind-opt %s -threadbind-sink-globals -gpu-kernel-outlining | FileCheck %s --check-prefix=OUTLINED

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// CHECK-LABEL: func.func @add_table(
// CHECK-SAME:    %[[A:.*]]: memref<4xf32>, %[[N:.*]]: index)
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[T:.*]] = memref.get_global @table : memref<4xf32>
// CHECK-NEXT:      %[[V:.*]] = memref.subview %[[T]][%[[N]]] [2] [1]
// CHECK:           memref.load %[[T]]
// CHECK:           memref.load %[[V]]
// CHECK:           memref.store {{.*}}, %[[A]]
// OUTLINED:      gpu.module @add_table_kernel
// OUTLINED:        gpu.func @add_table_kernel
// OUTLINED:          memref.get_global @table
// OUTLINED:        memref.global "private" constant @table : memref<4xf32>
func.func @add_table(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.get_global @table : memref<4xf32>
  %v = memref.subview %t[%n] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: ?>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %t[%tx] : memref<4xf32>
    %y = memref.load %v[%c0] : memref<2xf32, strided<[1], offset: ?>>
    %s = arith.addf %x, %y : f32
    memref.store %s, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
