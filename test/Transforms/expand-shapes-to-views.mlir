// threadbind-expand-shapes-to-views: a memref.expand_shape with more than
// one dynamic size in a reassociation group (which MLIR 22's
// expand-strided-metadata crashes on) becomes the reinterpret_cast of its
// source the lowering would have made; others stay. Checked in CPU
// execution against the same writes through flat indices, for a
// contiguous buffer, a buffer read every other element from an offset,
// and a group of three; threadbind-compile, which crashed on such a
// reshape, now compiles a kernel writing through one.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-expand-shapes-to-views | FileCheck %s
// RUN: threadbind-opt %s -threadbind-expand-shapes-to-views %lower_to_cpu | %run_cpu > %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: threadbind-compile %s --emit ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK-LABEL: func.func @view(
// CHECK-SAME:      %[[FLAT:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[R:.*]]: index, %[[C:.*]]: index
// CHECK:         %{{.*}}, %[[OFF:.*]], %{{.*}}, %[[S:.*]] = memref.extract_strided_metadata %[[FLAT]]
// CHECK:         %[[ROW:.*]] = arith.muli %[[S]], %[[C]]
// CHECK:         memref.reinterpret_cast %[[FLAT]] to offset: [%[[OFF]]], sizes: [%[[R]], %[[C]]], strides: [%[[ROW]], %[[S]]]
// CHECK-NOT:     memref.expand_shape
// CHECK-LABEL: func.func @cube(
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, %{{.*}}, 4], strides: [%{{.*}}, 4, 1]
// CHECK-LABEL: func.func @one_dynamic(
// CHECK:         memref.expand_shape
// CHECK-NOT:     memref.reinterpret_cast

// PTX: .entry view_kernel

// a[i][j] = 100 i + j through an r x c view of flat.
func.func @view(%flat: memref<?xf32, strided<[?], offset: ?>>, %r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %a = memref.expand_shape %flat [[0, 1]] output_shape [%r, %c] : memref<?xf32, strided<[?], offset: ?>> into memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %x = arith.muli %i, %c100 : index
    %y = arith.addi %x, %j : index
    %yi = arith.index_cast %y : index to i32
    %f = arith.sitofp %yi : i32 to f32
    memref.store %f, %a[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
  }
  return
}

// The same through flat indices: flat[i * c + j].
func.func @flat(%flat: memref<?xf32, strided<[?], offset: ?>>, %r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %x = arith.muli %i, %c100 : index
      %y = arith.addi %x, %j : index
      %yi = arith.index_cast %y : index to i32
      %f = arith.sitofp %yi : i32 to f32
      %row = arith.muli %i, %c : index
      %k = arith.addi %row, %j : index
      memref.store %f, %flat[%k] : memref<?xf32, strided<[?], offset: ?>>
    }
  }
  return
}

// a[i][j][k] = 100 i + 10 j + k through an n x m x 4 view of a buffer.
func.func @cube(%buf: memref<?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %a = memref.expand_shape %buf [[0, 1, 2]] output_shape [%n, %m, 4] : memref<?xf32> into memref<?x?x4xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %x = arith.muli %i, %c100 : index
        %y = arith.muli %j, %c10 : index
        %s = arith.addi %x, %y : index
        %t = arith.addi %s, %k : index
        %ti = arith.index_cast %t : index to i32
        %f = arith.sitofp %ti : i32 to f32
        memref.store %f, %a[%i, %j, %k] : memref<?x?x4xf32>
      }
    }
  }
  return
}

// One dynamic size a group: the lowering handles it, the pass leaves it.
func.func @one_dynamic(%buf: memref<?xf32>) -> memref<?x8xf32> {
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  %rows = arith.divui %n, %c8 : index
  %a = memref.expand_shape %buf [[0, 1]] output_shape [%rows, 8] : memref<?xf32> into memref<?x8xf32>
  return %a : memref<?x8xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @zero(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %a[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c40 = arith.constant 40 : index
  %a = memref.alloc(%c40) : memref<?xf32>
  %b = memref.alloc(%c40) : memref<?xf32>
  // Contiguous: 3 x 5 from element 0.
  call @zero(%a) : (memref<?xf32>) -> ()
  call @zero(%b) : (memref<?xf32>) -> ()
  %av = memref.cast %a : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %bv = memref.cast %b : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  call @view(%av, %c3, %c5) : (memref<?xf32, strided<[?], offset: ?>>, index, index) -> ()
  call @flat(%bv, %c3, %c5) : (memref<?xf32, strided<[?], offset: ?>>, index, index) -> ()
  %pa = memref.cast %a : memref<?xf32> to memref<*xf32>
  %pb = memref.cast %b : memref<?xf32> to memref<*xf32>
  vector.print str "contiguous\n"
  call @printMemrefF32(%pa) : (memref<*xf32>) -> ()
  call @printMemrefF32(%pb) : (memref<*xf32>) -> ()
  // Every other element from element 3: 3 x 5 over elements 3, 5, ... 31.
  call @zero(%a) : (memref<?xf32>) -> ()
  call @zero(%b) : (memref<?xf32>) -> ()
  %c15 = arith.constant 15 : index
  %as = memref.subview %a[3] [%c15] [2] : memref<?xf32> to memref<?xf32, strided<[2], offset: 3>>
  %bs = memref.subview %b[3] [%c15] [2] : memref<?xf32> to memref<?xf32, strided<[2], offset: 3>>
  %asv = memref.cast %as : memref<?xf32, strided<[2], offset: 3>> to memref<?xf32, strided<[?], offset: ?>>
  %bsv = memref.cast %bs : memref<?xf32, strided<[2], offset: 3>> to memref<?xf32, strided<[?], offset: ?>>
  call @view(%asv, %c3, %c5) : (memref<?xf32, strided<[?], offset: ?>>, index, index) -> ()
  call @flat(%bsv, %c3, %c5) : (memref<?xf32, strided<[?], offset: ?>>, index, index) -> ()
  vector.print str "strided\n"
  call @printMemrefF32(%pa) : (memref<*xf32>) -> ()
  call @printMemrefF32(%pb) : (memref<*xf32>) -> ()
  // Three sizes in one group: 2 x 5 x 4.
  call @zero(%a) : (memref<?xf32>) -> ()
  call @cube(%a, %c2, %c5) : (memref<?xf32>, index, index) -> ()
  vector.print str "cube\n"
  call @printMemrefF32(%pa) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// Through the view and through flat indices, the same buffers.
// OUT-LABEL: contiguous
// OUT: [0,  1,  2,  3,  4,  100,  101,  102,  103,  104,  200,  201,  202,  203,  204,  0,
// OUT: [0,  1,  2,  3,  4,  100,  101,  102,  103,  104,  200,  201,  202,  203,  204,  0,
// OUT-LABEL: strided
// OUT: [0,  0,  0,  0,  0,  1,  0,  2,  0,  3,  0,  4,  0,  100,  0,  101,
// OUT: [0,  0,  0,  0,  0,  1,  0,  2,  0,  3,  0,  4,  0,  100,  0,  101,
// OUT-LABEL: cube
// OUT: [0,  1,  2,  3,  10,  11,  12,  13,  20,  21,  22,  23,  30,  31,  32,  33,  40,  41,  42,  43,  100,  101,
