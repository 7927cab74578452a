// A function over views whose innermost stride is dynamic gets a copy for
// the unit stride, on the views rebuilt with a static unit innermost stride;
// the mapper then widens its accesses. Both copies compute what the
// original does, for unit and non-unit strides.
// RUN: threadbind-opt %s -threadbind-version-unit-strides | FileCheck %s
// RUN: threadbind-compile %s --emit mlir --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover

// CHECK-LABEL: func.func @scale(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[C:.*]]: memref<?xf32>
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[AB:.*]], %[[AO:.*]], %[[AZ:.*]]:2, %[[AS:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[AU:.*]] = arith.cmpi eq, %[[AS]]#1, %[[ONE]]
// CHECK:         %[[BB:.*]], %[[BO:.*]], %[[BZ:.*]]:2, %[[BS:.*]]:2 = memref.extract_strided_metadata %[[B]]
// CHECK:         %[[BU:.*]] = arith.cmpi eq, %[[BS]]#1, %[[ONE]]
// CHECK:         %[[ALL:.*]] = arith.andi %[[AU]], %[[BU]]
// CHECK:         scf.if %[[ALL]] {
// CHECK-NEXT:      %[[A1:.*]] = memref.reinterpret_cast %[[AB]] to offset: [%[[AO]]], sizes: [%[[AZ]]#0, %[[AZ]]#1], strides: [%[[AS]]#0, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:      %[[B1:.*]] = memref.reinterpret_cast %[[BB]] to offset: [%[[BO]]], sizes: [%[[BZ]]#0, %[[BZ]]#1], strides: [%[[BS]]#0, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK:           scf.parallel
// CHECK:             memref.load %[[A1]]
// CHECK:             memref.store %{{.*}}, %[[B1]]
// CHECK:         } else {
// CHECK:           scf.parallel
// CHECK:             memref.load %[[A]]
// CHECK:             memref.store %{{.*}}, %[[B]]
// CHECK-NEXT:        scf.reduce
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// The unit-stride copy is widened; the other is not.
// REMARKS: remark: widened: 4 elements a vector
// REMARKS: remark: not widened

// @identity takes no view with a dynamic innermost stride, @main has no
// parallel loop: both are left as they are.
// CHECK-LABEL: func.func @identity(
// CHECK-NOT:     scf.if
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     memref.extract_strided_metadata

// OUT: unit
// OUT: [2,   4,   6,   8,   10,   12,   14]
// OUT: [22,   24,   26,   28,   30,   32,   34]
// OUT: strided
// OUT: [4,   8,   12,   16,   20,   24,   28]
// OUT: [44,   48,   52,   56,   60,   64,   68]
// OUT: [2,  4,  6,  8,  10,  12,  14,  0,  0,  0,  22,  24,  26,  28,  30,  32,  34,  0,  0,  0,  4,  8,  12,  16,  20,  24,  28,  0,  0,  0,  44,  48,  52,  56,  60,  64,  68,  0,  0,  0]

func.func @scale(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                 %b: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                 %c: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %n = memref.dim %a, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
  }
  return
}

func.func @identity(%a: memref<?xf32>) {
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  %c40 = arith.constant 40 : index
  // src[k] = k + 1, 40 elements; dst zero.
  %src = memref.alloc() : memref<40xf32>
  %dst = memref.alloc() : memref<40xf32>
  scf.for %k = %c0 to %c40 step %c1 {
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %one = arith.constant 1.0 : f32
    %v = arith.addf %kf, %one : f32
    memref.store %v, %src[%k] : memref<40xf32>
    %z = arith.constant 0.0 : f32
    memref.store %z, %dst[%k] : memref<40xf32>
  }
  %empty = memref.alloc() : memref<1xf32>
  %c = memref.cast %empty : memref<1xf32> to memref<?xf32>
  // Unit strides: a 2x7 view of rows of 10 elements.
  %s2 = memref.reinterpret_cast %src to offset: [0], sizes: [2, 7], strides: [10, 1] : memref<40xf32> to memref<2x7xf32, strided<[10, 1]>>
  %d2 = memref.reinterpret_cast %dst to offset: [0], sizes: [2, 7], strides: [10, 1] : memref<40xf32> to memref<2x7xf32, strided<[10, 1]>>
  %sa = memref.cast %s2 : memref<2x7xf32, strided<[10, 1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %da = memref.cast %d2 : memref<2x7xf32, strided<[10, 1]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  func.call @scale(%sa, %da, %c) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xf32>) -> ()
  %u = memref.cast %d2 : memref<2x7xf32, strided<[10, 1]>> to memref<*xf32>
  vector.print str "unit\n"
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // Stride 2 from offset 1, into the other half of dst.
  %s3 = memref.reinterpret_cast %src to offset: [1], sizes: [2, 7], strides: [20, 2] : memref<40xf32> to memref<2x7xf32, strided<[20, 2], offset: 1>>
  %d3 = memref.reinterpret_cast %dst to offset: [20], sizes: [2, 7], strides: [10, 1] : memref<40xf32> to memref<2x7xf32, strided<[10, 1], offset: 20>>
  %sb = memref.cast %s3 : memref<2x7xf32, strided<[20, 2], offset: 1>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %db = memref.cast %d3 : memref<2x7xf32, strided<[10, 1], offset: 20>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  func.call @scale(%sb, %db, %c) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xf32>) -> ()
  %w = memref.cast %d3 : memref<2x7xf32, strided<[10, 1], offset: 20>> to memref<*xf32>
  vector.print str "strided\n"
  call @printMemrefF32(%w) : (memref<*xf32>) -> ()
  // Nothing else of dst was written.
  %all = memref.cast %dst : memref<40xf32> to memref<*xf32>
  call @printMemrefF32(%all) : (memref<*xf32>) -> ()
  memref.dealloc %src : memref<40xf32>
  memref.dealloc %dst : memref<40xf32>
  memref.dealloc %empty : memref<1xf32>
  return
}
