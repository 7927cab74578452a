// Options that fit the loops but not a reduction as given:
// --threads-per-block=100 is a valid block for the loop mapping, but a
// reduction's blocks must be whole warps. It used to be an error at the
// reduction, which refused every file with a reduction (threadbind-compile
// makes host checksum loops into reductions, too) under a block a user may
// pick for its loops. Now the reduction takes the whole warps of the block
// (96 threads; --block-shape=7,3 gives the loop 21 and the reduction one
// warp), the loop keeps 100, and both print what the program as written
// prints. The pass alone, given a block of 48, still refuses
// (Transforms/map-reductions.mlir).
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=threads-per-block=100 > %t.100.mlir
// RUN: FileCheck %s < %t.100.mlir
// RUN: threadbind-opt %t.100.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.100
// RUN: diff %t.ref %t.100
// RUN: threadbind-compile %s --emit=mlir --block-shape=7,3 -o %t.shape.mlir
// RUN: FileCheck %s --check-prefix=SHAPE < %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: threadbind-compile %s --threads-per-block=100 -o %t.ptx

// CHECK-LABEL: func.func @sum
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c96,
// CHECK-LABEL: func.func @scale
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c100,
// SHAPE-LABEL: func.func @sum
// SHAPE: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32,
// SHAPE-LABEL: func.func @scale
// SHAPE: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c21,
// OUT: 2450

func.func @sum(%x: memref<?xf32>, %out: memref<1xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}

func.func @scale(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 50 : index
  %x = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc() : memref<1xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%i] : memref<?xf32>
  }
  // 2 * (0 + 1 + ... + 49)
  call @scale(%x, %n) : (memref<?xf32>, index) -> ()
  call @sum(%x, %out, %n) : (memref<?xf32>, memref<1xf32>, index) -> ()
  %s = memref.load %out[%c0] : memref<1xf32>
  vector.print %s : f32
  memref.dealloc %x : memref<?xf32>
  memref.dealloc %out : memref<1xf32>
  return
}
