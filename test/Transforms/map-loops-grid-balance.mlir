// A grid-stride grid shares the resident blocks x first. For a 3-D nest in
// blocks one plane deep whose body reads a neighbourhood (a stencil), the
// last two dimensions are also tried balanced (the last promised up to 16
// blocks), and the grid that gives a block fewer tiles is kept; streams
// and blocks over two planes keep the greedy grid. With 1056 resident
// blocks (an H200 at 8 blocks of 256 threads a multiprocessor):
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="max-blocks=1056" -canonicalize -split-input-file | FileCheck %s

// A 382^3 stencil in 64x4x1 blocks needs 6 x 96 x 382 blocks. Greedily, y
// takes 96 of the 176 left after x and z gets one block, 576 blocks in all,
// each thread walking all 382 planes; balanced, 6 x 11 x 16 runs 1056
// blocks of 9 x 24 = 216 tiles.
// CHECK-LABEL: func.func @stencil_382
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C11:.*]] = arith.constant 11 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C6]], %{{.*}} = %[[C11]], %{{.*}} = %[[C16]])
func.func @stencil_382(%a: memref<384x384x384xf32>, %b: memref<384x384x384xf32>) {
  %c1 = arith.constant 1 : index
  %lo = arith.constant 1 : index
  %hi = arith.constant 383 : index
  scf.parallel (%i, %j, %k) = (%lo, %lo, %lo) to (%hi, %hi, %hi)
      step (%c1, %c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %x = memref.load %a[%i, %j, %k] : memref<384x384x384xf32>
    %y = memref.load %a[%im, %j, %k] : memref<384x384x384xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %b[%i, %j, %k] : memref<384x384x384xf32>
  }
  return
}

// -----

// A copy of the same size keeps the greedy grid: it streams one plane at a
// time, faster than blocks spread over 16.
// CHECK-LABEL: func.func @copy_382
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C96:.*]] = arith.constant 96 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C6]], %{{.*}} = %[[C96]], %{{.*}} = %[[C1]])
func.func @copy_382(%a: memref<384x384x384xf32>, %b: memref<384x384x384xf32>) {
  %c1 = arith.constant 1 : index
  %lo = arith.constant 1 : index
  %hi = arith.constant 383 : index
  scf.parallel (%i, %j, %k) = (%lo, %lo, %lo) to (%hi, %hi, %hi)
      step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<384x384x384xf32>
    memref.store %x, %b[%i, %j, %k] : memref<384x384x384xf32>
  }
  return
}

// -----

// A dense 27-point neighbourhood gets blocks over two planes (32x4x2),
// which keep the greedy grid: a block walking consecutive planes keeps the
// neighbourhood in L1.
// CHECK-LABEL: func.func @box_382
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG: %[[C88:.*]] = arith.constant 88 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C12]], %{{.*}} = %[[C88]], %{{.*}} = %[[C1]])
func.func @box_382(%a: memref<384x384x384xf32>, %b: memref<384x384x384xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %lo = arith.constant 1 : index
  %hi = arith.constant 383 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j, %k) = (%lo, %lo, %lo) to (%hi, %hi, %hi)
      step (%c1, %c1, %c1) {
    %s = scf.for %di = %c0 to %c3 step %c1 iter_args(%s0 = %zero) -> f32 {
      %s1 = scf.for %dj = %c0 to %c3 step %c1 iter_args(%t0 = %s0) -> f32 {
        %t1 = scf.for %dk = %c0 to %c3 step %c1 iter_args(%u0 = %t0) -> f32 {
          %ii = arith.addi %i, %di : index
          %jj = arith.addi %j, %dj : index
          %kk = arith.addi %k, %dk : index
          %i1 = arith.subi %ii, %c1 : index
          %j1 = arith.subi %jj, %c1 : index
          %k1 = arith.subi %kk, %c1 : index
          %v = memref.load %a[%i1, %j1, %k1] : memref<384x384x384xf32>
          %u1 = arith.addf %u0, %v : f32
          scf.yield %u1 : f32
        }
        scf.yield %t1 : f32
      }
      scf.yield %s1 : f32
    }
    memref.store %s, %b[%i, %j, %k] : memref<384x384x384xf32>
  }
  return
}

// -----

// A 254^3 stencil: greedy 4 x 64 x 4 (1024 blocks, 64 tiles) and the
// balanced 4 x 16 x 16 tie, and the tie keeps the greedy grid.
// CHECK-LABEL: func.func @stencil_254
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %[[C64]], %{{.*}} = %[[C4]])
func.func @stencil_254(%a: memref<256x256x256xf32>, %b: memref<256x256x256xf32>) {
  %c1 = arith.constant 1 : index
  %lo = arith.constant 1 : index
  %hi = arith.constant 255 : index
  scf.parallel (%i, %j, %k) = (%lo, %lo, %lo) to (%hi, %hi, %hi)
      step (%c1, %c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %x = memref.load %a[%i, %j, %k] : memref<256x256x256xf32>
    %y = memref.load %a[%im, %j, %k] : memref<256x256x256xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %b[%i, %j, %k] : memref<256x256x256xf32>
  }
  return
}

// -----

// A stencil that fits the resident blocks keeps a block per tile.
// CHECK-LABEL: func.func @stencil_fits
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C62:.*]] = arith.constant 62 : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C16]], %{{.*}} = %[[C62]])
func.func @stencil_fits(%a: memref<64x64x64xf32>, %b: memref<64x64x64xf32>) {
  %c1 = arith.constant 1 : index
  %lo = arith.constant 1 : index
  %hi = arith.constant 63 : index
  scf.parallel (%i, %j, %k) = (%lo, %lo, %lo) to (%hi, %hi, %hi)
      step (%c1, %c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %x = memref.load %a[%i, %j, %k] : memref<64x64x64xf32>
    %y = memref.load %a[%im, %j, %k] : memref<64x64x64xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %b[%i, %j, %k] : memref<64x64x64xf32>
  }
  return
}
