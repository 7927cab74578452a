// A grid-stride grid shares the resident blocks x first; the last two
// dimensions are then also tried balanced (the last promised up to 16
// blocks), and the grid that gives a block fewer tiles is kept. With 1056
// resident blocks of 64x4 threads (an H200 at 8 a multiprocessor):
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="max-blocks=1056" -canonicalize -split-input-file | FileCheck %s

// A 382^3 interior needs 6 x 96 x 382 blocks. Greedily, y takes 96 of the
// 176 left after x and z gets one block, 576 blocks in all, each thread
// walking all 382 planes; balanced, 6 x 11 x 16 runs 1056 blocks of
// 9 x 24 = 216 tiles.
// CHECK-LABEL: func.func @interior_382
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C11:.*]] = arith.constant 11 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C6]], %{{.*}} = %[[C11]], %{{.*}} = %[[C16]])
func.func @interior_382(%a: memref<384x384x384xf32>, %b: memref<384x384x384xf32>) {
  %c1 = arith.constant 1 : index
  %c383 = arith.constant 383 : index
  scf.parallel (%i, %j, %k) = (%c1, %c1, %c1) to (%c383, %c383, %c383)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<384x384x384xf32>
    memref.store %x, %b[%i, %j, %k] : memref<384x384x384xf32>
  }
  return
}

// -----

// A 254^3 interior: greedy 4 x 64 x 4 (1024 blocks, 64 tiles) and the
// balanced 4 x 16 x 16 tie, and the tie keeps the greedy grid.
// CHECK-LABEL: func.func @interior_254
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %[[C64]], %{{.*}} = %[[C4]])
func.func @interior_254(%a: memref<256x256x256xf32>, %b: memref<256x256x256xf32>) {
  %c1 = arith.constant 1 : index
  %c255 = arith.constant 255 : index
  scf.parallel (%i, %j, %k) = (%c1, %c1, %c1) to (%c255, %c255, %c255)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<256x256x256xf32>
    memref.store %x, %b[%i, %j, %k] : memref<256x256x256xf32>
  }
  return
}

// -----

// A 2-D nest in 32x8 blocks needing 600 x 125: greedily x takes 600 and y
// one block (125 rows a thread); balanced, 60 x 17 runs 1020 blocks of
// 10 x 8 = 80 tiles.
// CHECK-LABEL: func.func @wide_rows
// CHECK-DAG: %[[C60:.*]] = arith.constant 60 : index
// CHECK-DAG: %[[C17:.*]] = arith.constant 17 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C60]], %{{.*}} = %[[C17]], %{{.*}} = %{{.*}})
func.func @wide_rows(%a: memref<1000x19200xf32>, %b: memref<1000x19200xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 1000 : index
  %n = arith.constant 19200 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<1000x19200xf32>
    memref.store %x, %b[%i, %j] : memref<1000x19200xf32>
  }
  return
}

// -----

// A nest that fits the resident blocks keeps a block per tile: 1 x 16 x 64.
// CHECK-LABEL: func.func @fits
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C16]], %{{.*}} = %[[C64]])
func.func @fits(%a: memref<64x64x64xf32>, %b: memref<64x64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 64 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %n, %n)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<64x64x64xf32>
    memref.store %x, %b[%i, %j, %k] : memref<64x64x64xf32>
  }
  return
}
