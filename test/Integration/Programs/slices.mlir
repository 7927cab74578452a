// y[:, ::2] += a * x[:, 1::2]: an update through strided views, as a
// PyTorch user slices tensors and hands the slices over.
// Source: PyTorch basic slicing (torch.Tensor.__getitem__ with steps), the
// views' layout as torch.Tensor.stride() reports it
// Translated to MLIR by hand: one scf.parallel over the view's elements on
// memrefs with fully dynamic strided layouts. threadbind-version-unit-strides
// gives it a copy for unit innermost strides, which is widened; the views
// here take the other copy, the row-major BUNDLE run the first.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block shape.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// BOUND-DAG: remark: bound to gpu.launch
// CHECK: y
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [{{\[}}1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT: [4,   1,   10,   1,   16,   1,   22,   1,   28,   1,   34,   1,   40,   1,   46,   1,   52,   1,   58,   1,   64,   1,   70,   1,   76,   1,   82,   1,   88,   1,   94,   1]]
// BUNDLE: --entry kernel --shape 0=1024x2048 --shape 1=1024x2048
// BUNDLE: --entry kernel --shape 0=1024x2048 --strides 0=4096x2 --offset 0=1 --shape 1=1024x2048 --strides 1=4096x2
// BUNDLE: --entry kernel --shape 0=2048x1024 --strides 0=1x2048 --shape 1=2048x1024 --strides 1=1024x1 --offset 1=7

func.func @kernel(%x: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                  %y: memref<?x?xf32, strided<[?, ?], offset: ?>>, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %y, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %n = memref.dim %y, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %xv = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %yv = memref.load %y[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %p = arith.mulf %a, %xv : f32
    %s = arith.addf %yv, %p : f32
    memref.store %s, %y[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// x[r][c] = c for a 2x32 matrix, y all ones; y[1:, ::2] += 3 * x[:1, 1::2]:
// row 0 of y stays 1, row 1 gets 1 + 3 * (2k + 1) at even columns.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %x = memref.alloc() : memref<2x32xf32>
  %y = memref.alloc() : memref<2x32xf32>
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %c32 step %c1 {
      %ci = arith.index_cast %c : index to i32
      %cf = arith.sitofp %ci : i32 to f32
      memref.store %cf, %x[%r, %c] : memref<2x32xf32>
      memref.store %one, %y[%r, %c] : memref<2x32xf32>
    }
  }
  %xs = memref.subview %x[0, 1] [1, 16] [1, 2] : memref<2x32xf32> to memref<1x16xf32, strided<[32, 2], offset: 1>>
  %ys = memref.subview %y[1, 0] [1, 16] [1, 2] : memref<2x32xf32> to memref<1x16xf32, strided<[32, 2], offset: 32>>
  %xd = memref.cast %xs : memref<1x16xf32, strided<[32, 2], offset: 1>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %yd = memref.cast %ys : memref<1x16xf32, strided<[32, 2], offset: 32>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  call @kernel(%xd, %yd, %three) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32) -> ()
  vector.print str "y\n"
  %yp = memref.cast %y : memref<2x32xf32> to memref<*xf32>
  call @printMemrefF32(%yp) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<2x32xf32>
  memref.dealloc %y : memref<2x32xf32>
  return
}
