// A lookup table kept in a mutable global: one kernel builds it, the next
// maps an image through it, as CUDA code keeps a table in a __device__
// array between launches.
// Source: written for ThreadBind after a user's program of this shape
// compiled to two kernels with a copy of the table each, so the second
// read zeros; the pattern is that of a tone curve applied by lookup
// (build the curve, then index it by each pixel's level).
// Written as a user writes it: the table a memref.global without
// `constant`, filled by one scf.parallel, read by a 2-D scf.parallel that
// indexes it by each pixel's quantised level.
// Checked in CPU emulation against the original under the default
// options, a cover grid with 64-thread blocks, and an explicit block
// shape; the PTX holds one table, which both kernels address.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
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
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// BOUND-COUNT-2: remark: bound to gpu.launch
// BOUND-NOT: warning
// CHECK: out
// PTX-COUNT-1: .global .align {{[0-9]+}} .b8 lut[1024];
// PTX-NOT: .b8 lut
// BUNDLE: --entry kernel --shape 0=2048x2048 --shape 1=2048x2048

memref.global "private" @lut : memref<256xf32> = uninitialized

// lut[l] = ((l * l) mod 251) / 2
func.func @build_lut() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c251 = arith.constant 251 : index
  %half = arith.constant 0.5 : f32
  %lut = memref.get_global @lut : memref<256xf32>
  scf.parallel (%l) = (%c0) to (%c256) step (%c1) {
    %sq = arith.muli %l, %l : index
    %m = arith.remui %sq, %c251 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %v = arith.mulf %mf, %half : f32
    memref.store %v, %lut[%l] : memref<256xf32>
  }
  return
}

// out[i][j] = lut[trunc(|img[i][j]| * 100) mod 256]
func.func @apply_lut(%img: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %scale = arith.constant 100.0 : f32
  %rows = memref.dim %img, %c0 : memref<?x?xf32>
  %cols = memref.dim %img, %c1 : memref<?x?xf32>
  %lut = memref.get_global @lut : memref<256xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %x = memref.load %img[%i, %j] : memref<?x?xf32>
    %a = math.absf %x : f32
    %s = arith.mulf %a, %scale : f32
    %q = arith.fptoui %s : f32 to i32
    %level = arith.index_cast %q : i32 to index
    %l = arith.remui %level, %c256 : index
    %v = memref.load %lut[%l] : memref<256xf32>
    memref.store %v, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @kernel(%img: memref<?x?xf32>, %out: memref<?x?xf32>) {
  call @build_lut() : () -> ()
  call @apply_lut(%img, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %rows = arith.constant 37 : index
  %cols = arith.constant 29 : index
  %img = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %out = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %step = arith.constant 0.37 : f32
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %w = arith.muli %i, %c7 : index
      %k = arith.addi %w, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %v = arith.mulf %kf, %step : f32
      memref.store %v, %img[%i, %j] : memref<?x?xf32>
    }
  }
  call @kernel(%img, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> f32 {
    %row = scf.for %j = %c0 to %cols step %c1 iter_args(%racc = %acc) -> f32 {
      %v = memref.load %out[%i, %j] : memref<?x?xf32>
      %jw = arith.addi %j, %c1 : index
      %jwi = arith.index_cast %jw : index to i32
      %jwf = arith.sitofp %jwi : i32 to f32
      %p = arith.mulf %v, %jwf : f32
      %n = arith.addf %racc, %p : f32
      scf.yield %n : f32
    }
    scf.yield %row : f32
  }
  vector.print str "out "
  vector.print %sum : f32
  return
}
