// Upstream's parallel-loop mapping, emulated on the CPU, must print exactly
// what the original scf.parallel prints: for the default mapping (one thread
// per block) and after tiling by 256, with sizes that are and are not
// multiples of the tile.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -gpu-map-parallel-loops -convert-parallel-loops-to-gpu > %t.default.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default

// RUN: threadbind-opt %s -scf-parallel-loop-tiling=parallel-loop-tile-sizes=256 -canonicalize -gpu-map-parallel-loops -convert-parallel-loops-to-gpu > %t.tiled.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.tiled.mlir
// RUN: threadbind-opt %t.tiled.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.tiled
// RUN: diff %t.ref %t.tiled

// RUN: threadbind-opt %s "-scf-parallel-loop-tiling=parallel-loop-tile-sizes=256 no-min-max-bounds" -gpu-map-parallel-loops -convert-parallel-loops-to-gpu > %t.nominmax.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.nominmax.mlir
// RUN: threadbind-opt %t.nominmax.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.nominmax
// RUN: diff %t.ref %t.nominmax

// MAPPED-LABEL: func.func @kernel
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED: return

func.func private @printMemrefF32(memref<*xf32>)

// c[i] = a[i] * b[i] + a[i]
func.func @kernel(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = memref.load %b[%i] : memref<?xf32>
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %x : f32
    memref.store %s, %c[%i] : memref<?xf32>
  }
  return
}

// a[i] = i / 2, b[i] = 3 - i, c[i] = -1 before the kernel runs.
func.func @run(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %three = arith.constant 3.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %x = arith.mulf %f, %half : f32
    %y = arith.subf %three, %f : f32
    memref.store %x, %a[%i] : memref<?xf32>
    memref.store %y, %b[%i] : memref<?xf32>
    memref.store %minus1, %c[%i] : memref<?xf32>
  }
  call @kernel(%a, %b, %c) : (memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %u = memref.cast %c : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return
}

// CHECK: sizes = [5]
// CHECK-NEXT: [0,  1.5,  2,  1.5,  0]
// CHECK: sizes = [512]
// CHECK-NEXT: [0,  1.5,  2,  1.5,  0,  -2.5,
// CHECK-SAME: -129538]
// CHECK: sizes = [1000]
// CHECK-NEXT: [0,  1.5,
// CHECK-SAME: -497002]
func.func @main() {
  %c5 = arith.constant 5 : index
  %c512 = arith.constant 512 : index
  %c1000 = arith.constant 1000 : index
  call @run(%c5) : (index) -> ()
  call @run(%c512) : (index) -> ()
  call @run(%c1000) : (index) -> ()
  return
}
