// Valid but unusual: memref.subview (strided) and memref.collapse_shape made
// inside the loop body. Before issue 13 they reached the LLVM translation
// of the kernel as unrealized casts ("LLVM Translation failed for operation:
// builtin.unrealized_conversion_cast"): the device lowering did not expand
// strided metadata. Also a memref.copy between contiguous row views, which
// lowers to a memcpy on the device. (%lower_to_cpu expands strided
// metadata after lowering affine, so views need it done first.)
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -expand-strided-metadata %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch -expand-strided-metadata %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @views
// MAPPED: gpu.launch
// MAPPED: memref.subview
// MAPPED: memref.collapse_shape
// MAPPED: memref.copy
// PTX: .entry

func.func @views(%a: memref<?x2x4xf32>, %b: memref<?x4xf32>, %c: memref<?x2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // Every other element of row i's second half.
    %odd = memref.subview %a[%i, 1, 0] [1, 1, 2] [1, 1, 2] : memref<?x2x4xf32> to memref<2xf32, strided<[2], offset: ?>>
    %x = memref.load %odd[%c1] : memref<2xf32, strided<[2], offset: ?>>
    %flat = memref.collapse_shape %a [[0], [1, 2]] : memref<?x2x4xf32> into memref<?x8xf32>
    %y = memref.load %flat[%i, %c6] : memref<?x8xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%i, %c0] : memref<?x2xf32>
    memref.store %x, %c[%i, %c1] : memref<?x2xf32>
    %row = memref.subview %a[%i, 0, 0] [1, 1, 4] [1, 1, 1] : memref<?x2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %out = memref.subview %b[%i, 0] [1, 4] [1, 1] : memref<?x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %row, %out : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [3, 4]
// CHECK-NEXT: {{\[}}[0,   1,   2,   3],
// CHECK-NEXT: [8,   9,   10,   11],
// CHECK-NEXT: [16,   17,   18,   19]]
// CHECK: sizes = [3, 2]
// CHECK-NEXT: {{\[}}[12,   6],
// CHECK-NEXT: [28,   14],
// CHECK-NEXT: [44,   22]]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc(%c3) : memref<?x2x4xf32>
  %b = memref.alloc(%c3) : memref<?x4xf32>
  %c = memref.alloc(%c3) : memref<?x2xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %r = arith.muli %i, %c8 : index
        %q = arith.muli %j, %c4 : index
        %s = arith.addi %r, %q : index
        %t = arith.addi %s, %k : index
        %v = arith.index_cast %t : index to i32
        %f = arith.sitofp %v : i32 to f32
        memref.store %f, %a[%i, %j, %k] : memref<?x2x4xf32>
      }
    }
  }
  call @views(%a, %b, %c, %c3) : (memref<?x2x4xf32>, memref<?x4xf32>, memref<?x2xf32>, index) -> ()
  %ub = memref.cast %b : memref<?x4xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  %uc = memref.cast %c : memref<?x2xf32> to memref<*xf32>
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x2x4xf32>
  memref.dealloc %b : memref<?x4xf32>
  memref.dealloc %c : memref<?x2xf32>
  return
}
