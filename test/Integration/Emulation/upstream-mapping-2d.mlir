// Upstream's 2-D parallel-loop mapping, emulated on the CPU, must print
// exactly what the original scf.parallel prints: default mapping, and tiled
// by 16x16 with extents that are (32x48) and are not (33x70, 3x5) multiples.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -gpu-map-parallel-loops -convert-parallel-loops-to-gpu > %t.default.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default

// RUN: threadbind-opt %s -scf-parallel-loop-tiling=parallel-loop-tile-sizes=16,16 -canonicalize -gpu-map-parallel-loops -convert-parallel-loops-to-gpu > %t.tiled.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.tiled.mlir
// RUN: threadbind-opt %t.tiled.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.tiled
// RUN: diff %t.ref %t.tiled

// RUN: threadbind-opt %s "-scf-parallel-loop-tiling=parallel-loop-tile-sizes=16,16 no-min-max-bounds" -gpu-map-parallel-loops -convert-parallel-loops-to-gpu > %t.nominmax.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.nominmax.mlir
// RUN: threadbind-opt %t.nominmax.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.nominmax
// RUN: diff %t.ref %t.nominmax

// MAPPED-LABEL: func.func @kernel
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED: return

func.func private @printMemrefF32(memref<*xf32>)

// out[i][j] = in[i][j] * 2 + j - i
func.func @kernel(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xf32>
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i32
    %df = arith.sitofp %di : i32 to f32
    %y = arith.mulf %x, %two : f32
    %z = arith.addf %y, %df : f32
    memref.store %z, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

// in[i][j] = i * 100 + j, out = -1 before the kernel runs.
func.func @run(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %minus1 = arith.constant -1.0 : f32
  %in = memref.alloc(%m, %n) : memref<?x?xf32>
  %out = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %r = arith.muli %i, %c100 : index
      %v = arith.addi %r, %j : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %in[%i, %j] : memref<?x?xf32>
      memref.store %minus1, %out[%i, %j] : memref<?x?xf32>
    }
  }
  call @kernel(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %u = memref.cast %out : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}

// CHECK: sizes = [3, 5]
// CHECK-NEXT: {{\[}}[0,   3,   6,   9,   12],
// CHECK-NEXT: [199,   202,   205,   208,   211],
// CHECK-NEXT: [398,   401,   404,   407,   410]]
// CHECK: sizes = [32, 48]
// CHECK: sizes = [33, 70]
// CHECK: [6368,
// CHECK-SAME: 6575]]
func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c33 = arith.constant 33 : index
  %c70 = arith.constant 70 : index
  call @run(%c3, %c5) : (index, index) -> ()
  call @run(%c32, %c48) : (index, index) -> ()
  call @run(%c33, %c70) : (index, index) -> ()
  return
}
