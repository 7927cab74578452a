// The direct mapping, which @transposed checks the analysis of (by default
// it is staged through workgroup memory: map-loops-staged-transpose.mlir).
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=stage-transposes=false -cse -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=grid-policy=cover -split-input-file | FileCheck %s --check-prefix=COVER
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="dim-order=0 block-shape=64,2 max-blocks=128" -split-input-file | FileCheck %s --check-prefix=FORCED

// A 1-D loop: 256 threads, a grid capped by the host's answer, and a
// grid-stride loop from blockIdx * blockDim + threadIdx.
// CHECK-LABEL: func.func @one_d
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[CAP:.*]] = call @threadbind_max_resident_blocks(%[[C256]]) : (index) -> index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%[[GX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[SX:.*]] = %[[C256]],
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[SX]] : index
// CHECK: %[[GID:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK: %[[STRIDE:.*]] = arith.muli %[[GX]], %[[SX]] : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK: memref.load %[[A]][%[[I]]]
// CHECK: gpu.terminator
// CHECK-NEXT: } {threadbind.grid_policy = "grid-stride"}
// CHECK: func.func private @threadbind_max_resident_blocks(index) -> index

// COVER-LABEL: func.func @one_d
// COVER-NOT: threadbind_max_resident_blocks
// COVER: gpu.launch
// COVER: %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// COVER: scf.if %[[IN]] {
// COVER: memref.load
// COVER: } {threadbind.grid_policy = "cover"}
func.func @one_d(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// Row-major 2-D: j walks the contiguous dimension and goes to x, i to y;
// the x loop is the inner one. Block 32x8.
// CHECK-LABEL: func.func @rows
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[J]]]

// The forced order puts i on x with the explicit 64x2 block.
// FORCED-LABEL: func.func @rows
// FORCED: threads({{.*}}) in (%{{.*}} = %c64{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}})
// FORCED: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// FORCED-NEXT: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// FORCED-NEXT: memref.load %{{.*}}[%[[I]], %[[J]]]
func.func @rows(%a: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// The outer induction variable walks the contiguous dimension: it goes to
// x and runs in the inner loop, whatever the loop's written order.
// CHECK-LABEL: func.func @outer_contiguous
// CHECK: gpu.launch
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[J]]]
func.func @outer_contiguous(%a: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%j, %i) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// A transposed access: c[j][i] = a[j][i] + b[i][j]. Two of three accesses
// are contiguous in i, so i goes to x (the inner loop) despite being the
// outer loop dimension.
// CHECK-LABEL: func.func @transposed
// CHECK: gpu.launch
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.load %{{.*}}[%[[J]], %[[I]]]
func.func @transposed(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%j, %i] : memref<?x?xf32>
  }
  return
}

// -----

// A column-major view (strided<[1, ?]>): dimension 0 has unit stride, so
// the loop over it goes to x.
// CHECK-LABEL: func.func @column_major_view
// CHECK: gpu.launch
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[J]]] : memref<?x?xf32, strided<[1, ?]>>
func.func @column_major_view(%a: memref<?x?xf32, strided<[1, ?]>>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32, strided<[1, ?]>>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %a[%i, %j] : memref<?x?xf32, strided<[1, ?]>>
  }
  return
}

// -----

// A small static contiguous extent (8): the block shrinks along x and the
// freed threads go to y, keeping 256 threads.
// CHECK-LABEL: func.func @narrow_rows
// CHECK: threads({{.*}}) in (%{{.*}} = %c8{{.*}}, %{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}})
func.func @narrow_rows(%a: memref<4096x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c4096 = arith.constant 4096 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4096, %c8) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<4096x8xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %a[%i, %j] : memref<4096x8xf32>
  }
  return
}

// -----

// 3-D and more, a body of few loads: 64x4x1 (32x4x2 for more, below). More
// than three dimensions: the first two on x and y, the others linearised
// onto z and recovered with div/rem by their trip counts.
// CHECK-LABEL: func.func @four_d
// CHECK: gpu.launch
// CHECK-SAME: threads({{.*}}) in (%{{.*}} = %c64{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: scf.for %[[Z:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.remui %[[Z]], %{{.*}} : index
// CHECK: arith.divui %[[Z]], %{{.*}} : index
// CHECK: scf.for
// CHECK: scf.for
func.func @four_d(%a: memref<?x?x?x?xf32>, %e0: index, %e1: index, %e2: index, %e3: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%e0, %e1, %e2, %e3) step (%c1, %c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k, %l] : memref<?x?x?x?xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %a[%i, %j, %k, %l] : memref<?x?x?x?xf32>
  }
  return
}

// -----

// A 3-D body that reads more than 16 elements an iteration (17 here, in a
// loop of static trip count) gets 32x4x2 blocks, as does one whose loop's
// trip count is not static; 16 keep 64x4x1.
// CHECK-LABEL: func.func @dense_3d
// CHECK-SAME: (%{{.*}}, %{{.*}}, %[[N:.*]]: index)
// CHECK: gpu.launch
// CHECK-SAME: threads({{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c2{{.*}})
// CHECK: gpu.launch
// CHECK-SAME: threads({{.*}}) in (%{{.*}} = %c64{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: gpu.launch
// CHECK-SAME: threads({{.*}}) in (%{{.*}} = %c32{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c2{{.*}})
func.func @dense_3d(%a: memref<?x?x?xf32>, %b: memref<?x?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %zero = arith.constant 0.0 : f32
  %d0 = memref.dim %b, %c0 : memref<?x?x?xf32>
  %d1 = memref.dim %b, %c1 : memref<?x?x?xf32>
  %d2 = memref.dim %b, %c2 : memref<?x?x?xf32>
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%d0, %d1, %d2) step (%c1, %c1, %c1) {
    %s = scf.for %t = %c0 to %c17 step %c1 iter_args(%acc = %zero) -> f32 {
      %kt = arith.addi %k, %t : index
      %x = memref.load %a[%i, %j, %kt] : memref<?x?x?xf32>
      %y = arith.addf %acc, %x : f32
      scf.yield %y : f32
    }
    memref.store %s, %b[%i, %j, %k] : memref<?x?x?xf32>
  }
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%d0, %d1, %d2) step (%c1, %c1, %c1) {
    %s = scf.for %t = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
      %kt = arith.addi %k, %t : index
      %x = memref.load %a[%i, %j, %kt] : memref<?x?x?xf32>
      %y = arith.addf %acc, %x : f32
      scf.yield %y : f32
    }
    memref.store %s, %b[%i, %j, %k] : memref<?x?x?xf32>
  }
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%d0, %d1, %d2) step (%c1, %c1, %c1) {
    %s = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %kt = arith.addi %k, %t : index
      %x = memref.load %a[%i, %j, %kt] : memref<?x?x?xf32>
      %y = arith.addf %acc, %x : f32
      scf.yield %y : f32
    }
    memref.store %s, %b[%i, %j, %k] : memref<?x?x?xf32>
  }
  return
}

// -----

// A zero-trip static loop still launches one block per dimension, whose
// loops run no iteration; the host's block cap is shared x first, then y,
// and y stays within 65535.
// CHECK-LABEL: func.func @zero_trip
// CHECK: %[[CAP:.*]] = call @threadbind_max_resident_blocks
// CHECK: %[[X0:.*]] = arith.minui %{{.*}}, %[[CAP]] : index
// CHECK: %[[X1:.*]] = arith.minui %[[X0]], %{{.*}} : index
// CHECK: %[[GX:.*]] = arith.maxui %[[X1]], %{{.*}} : index
// CHECK: %[[LEFT:.*]] = arith.divui %[[CAP]], %[[GX]] : index
// CHECK: %[[C65535:.*]] = arith.constant 65535 : index
// CHECK: arith.minui %{{.*}}, %[[C65535]] : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GX]],
func.func @zero_trip(%a: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c5, %c5) to (%c0, %c0) step (%c1, %c1) {
    memref.store %f, %a[%i, %j] : memref<16x16xf32>
  }
  return
}

// -----

// Loops already on the device stay; a loop inside a host scf.for is mapped
// there.
// CHECK-LABEL: func.func @placement
// CHECK: gpu.launch
// CHECK: scf.parallel
// CHECK: gpu.terminator
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: gpu.terminator
func.func @placement(%a: memref<?x?xf32>, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %f, %a[%i, %i] : memref<?x?xf32>
    }
    gpu.terminator
  }
  scf.for %step = %c0 to %t step %c1 {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %f, %a[%i, %i] : memref<?x?xf32>
    }
  }
  return
}

// -----

// A triangular nest (inner bound from the outer iv) with pure code between:
// one row per block, blockIdx.x striding over rows by gridDim.x, the row's
// columns over threadIdx.x striding by blockDim.x.
// CHECK-LABEL: func.func @triangular
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%[[GX:.*]] = %{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[SX:.*]] = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: scf.for %[[I:.*]] = %[[BX]] to %{{.*}} step %[[GX]] {
// CHECK: %[[ROW:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: scf.for %[[J:.*]] = %[[TX]] to %[[ROW]] step %[[SX]] {
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT: scf.parallel
// CHECK: gpu.terminator
func.func @triangular(%a: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %row = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%row) step (%c1) {
      memref.store %f, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// -----

// A store between the loops would run once per thread of the block, so the
// nest stays flat: the nested loop runs sequentially inside each thread.
// CHECK-LABEL: func.func @side_effect_between
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: memref.store
// CHECK: scf.parallel
// CHECK: gpu.terminator
func.func @side_effect_between(%a: memref<?x?xf32>, %d: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %d[%i] : memref<?xf32>
    scf.parallel (%j) = (%c0) to (%i) step (%c1) {
      memref.store %f, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
