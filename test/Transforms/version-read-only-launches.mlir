// threadbind-version-read-only-launches: a launch that reads some memref
// arguments and writes others runs a copy whose loads of the read-only
// ones are marked (threadbind.read_only_load) where the host finds their
// bytes disjoint from the written ones', and itself otherwise; a launch
// that writes no memref is marked as it is; one whose memrefs the function
// makes itself is left alone. The test is checked in CPU emulation on
// views of one buffer (apart, sharing an element, interleaved, empty) and
// on two buffers, with each side's result equal to the reference.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-version-read-only-launches > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.ref
// RUN: %python %S/Inputs/print-read-only-branch.py < %t.mlir > %t.printed.mlir
// RUN: threadbind-opt %t.printed.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: FileCheck %s --check-prefix=BRANCH < %t.out
// RUN: grep -v -e read-only -e plain %t.out | diff %t.ref -

// CHECK-LABEL: func.func @scale(
// CHECK-SAME:      %[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[B:.*]]: memref<?xf32, strided<[?], offset: ?>>
// CHECK:         %[[D:.*]] = call @threadbind_disjoint(%[[A]], %[[B]])
// CHECK:         scf.if %[[D]] {
// CHECK:           gpu.launch
// CHECK:             memref.load %[[A]]{{.*}} {threadbind.read_only_load}
// CHECK:             memref.store
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         threadbind.read_only_load
// CHECK:         }
// CHECK-LABEL: func.func @sum_into(
// CHECK:           call @threadbind_disjoint
// CHECK:           call @threadbind_disjoint
// CHECK:           arith.andi
// CHECK-LABEL: func.func @local(
// CHECK-NOT:       threadbind_disjoint
// CHECK:           gpu.launch
// CHECK-NOT:         threadbind.read_only_load
// CHECK:           gpu.launch
// CHECK-NOT:         threadbind.read_only_load
// CHECK:           gpu.launch
// CHECK:             memref.load {{.*}} {threadbind.read_only_load}
// CHECK-NOT:       threadbind_disjoint
// CHECK-LABEL: func.func private @threadbind_disjoint(
// CHECK-SAME:      attributes {threadbind.disjoint_helper}
// CHECK:         memref.extract_strided_metadata
// CHECK:         memref.extract_aligned_pointer_as_index

// Apart, sharing element 7, interleaved (even and odd elements: disjoint
// elements, overlapping bytes), empty, two buffers; then sum_into with
// its output apart from both inputs, and overlapping the second; then
// local, which tests nothing.
// BRANCH: read-only
// BRANCH-NEXT: scale
// BRANCH-NEXT: plain
// BRANCH-NEXT: scale
// BRANCH-NEXT: plain
// BRANCH-NEXT: scale
// BRANCH-NEXT: read-only
// BRANCH-NEXT: scale
// BRANCH-NEXT: read-only
// BRANCH-NEXT: scale
// BRANCH-NEXT: read-only
// BRANCH-NEXT: sum
// BRANCH-NEXT: plain
// BRANCH-NEXT: sum
// BRANCH-NEXT: sum

// b[i] = 2 a[i], a block an element.
func.func @scale(%a: memref<?xf32, strided<[?], offset: ?>>,
                 %b: memref<?xf32, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %b, %c0 : memref<?xf32, strided<[?], offset: ?>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %two = arith.constant 2.0 : f32
    %x = memref.load %a[%bx] : memref<?xf32, strided<[?], offset: ?>>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%bx] : memref<?xf32, strided<[?], offset: ?>>
    gpu.terminator
  }
  return
}

// c[i] = a[i] + b[i]
func.func @sum_into(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %c, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%bx] : memref<?xf32>
    %y = memref.load %b[%bx] : memref<?xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %c[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// Buffers of its own: nothing to test. A launch that writes no memref (it
// only reads a's size and first element into nothing) is marked as it is.
func.func @local(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1.0 : f32
    memref.store %one, %a[%bx] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%bx] : memref<?xf32>
    memref.store %x, %out[%bx] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %out[%c0] : memref<?xf32>
    gpu.terminator
  }
  memref.dealloc %a : memref<?xf32>
  return
}

func.func @fill(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}

func.func @print(%name: index, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %a[%i] : memref<?xf32>
    %ii = arith.index_cast %i : index to i32
    %w = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %x, %w : f32
    %t = arith.addf %acc, %p : f32
    scf.yield %t : f32
  }
  %is_scale = arith.cmpi eq, %name, %c0 : index
  scf.if %is_scale {
    vector.print str "scale "
  } else {
    vector.print str "sum "
  }
  vector.print %s : f32
  return
}

func.func @view(%a: memref<?xf32>, %offset: index, %size: index, %stride: index)
    -> memref<?xf32, strided<[?], offset: ?>> {
  %v = memref.subview %a[%offset] [%size] [%stride]
      : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  return %v : memref<?xf32, strided<[?], offset: ?>>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc(%c16) : memref<?xf32>
  %other = memref.alloc(%c16) : memref<?xf32>
  %t = memref.alloc(%c8) : memref<?xf32>
  call @fill(%buf) : (memref<?xf32>) -> ()
  call @fill(%other) : (memref<?xf32>) -> ()

  // [0, 8) into [8, 16): apart.
  %a0 = call @view(%buf, %c0, %c8, %c1) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  %b0 = call @view(%buf, %c8, %c8, %c1) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  call @scale(%a0, %b0) : (memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) -> ()
  call @print(%c0, %buf) : (index, memref<?xf32>) -> ()
  // [0, 8) into [7, 15): element 7 shared.
  %b1 = call @view(%buf, %c7, %c8, %c1) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  call @scale(%a0, %b1) : (memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) -> ()
  call @print(%c0, %buf) : (index, memref<?xf32>) -> ()
  // Even elements into odd ones: no element shared, the bytes interleave.
  %a2 = call @view(%buf, %c0, %c8, %c2) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  %b2 = call @view(%buf, %c1, %c7, %c2) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  call @scale(%a2, %b2) : (memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) -> ()
  call @print(%c0, %buf) : (index, memref<?xf32>) -> ()
  // An empty output inside the input.
  %b3 = call @view(%buf, %c1, %c0, %c1) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  call @scale(%a0, %b3) : (memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) -> ()
  call @print(%c0, %buf) : (index, memref<?xf32>) -> ()
  // Two buffers.
  %a4 = call @view(%other, %c0, %c16, %c1) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  %b4 = call @view(%buf, %c0, %c16, %c1) : (memref<?xf32>, index, index, index) -> memref<?xf32, strided<[?], offset: ?>>
  call @scale(%a4, %b4) : (memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) -> ()
  call @print(%c0, %buf) : (index, memref<?xf32>) -> ()

  // t = buf[0, 8) + other[0, 8), then in place: other = buf + other.
  %s0 = memref.subview %buf[0] [8] [1] : memref<?xf32> to memref<8xf32, strided<[1]>>
  %s1 = memref.subview %other[0] [8] [1] : memref<?xf32> to memref<8xf32, strided<[1]>>
  %x0 = memref.alloc(%c8) : memref<?xf32>
  %x1 = memref.alloc(%c8) : memref<?xf32>
  memref.copy %s0, %x0 : memref<8xf32, strided<[1]>> to memref<?xf32>
  memref.copy %s1, %x1 : memref<8xf32, strided<[1]>> to memref<?xf32>
  call @sum_into(%x0, %x1, %t) : (memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  call @print(%c1, %t) : (index, memref<?xf32>) -> ()
  call @sum_into(%x0, %x1, %x1) : (memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  call @print(%c1, %x1) : (index, memref<?xf32>) -> ()
  call @local(%c8, %t) : (index, memref<?xf32>) -> ()
  call @print(%c1, %t) : (index, memref<?xf32>) -> ()
  memref.dealloc %x0 : memref<?xf32>
  memref.dealloc %x1 : memref<?xf32>
  memref.dealloc %buf : memref<?xf32>
  memref.dealloc %other : memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  return
}
