// RUN: threadbind-opt %s -threadbind-map-reductions="unroll=4 vector-bytes=0" -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-reductions=remarks -split-input-file -verify-diagnostics -o /dev/null
// RUN: threadbind-opt %s -threadbind-map-reductions=vector-bytes=0 -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: threadbind-opt %s -threadbind-map-reductions="max-blocks=64 vector-bytes=0" -split-input-file | FileCheck %s --check-prefix=CAP
// RUN: threadbind-opt %s -threadbind-map-reductions="unroll=1 vector-bytes=0" -split-input-file | FileCheck %s --check-prefix=ONE
// RUN: threadbind-opt %s -threadbind-map-reductions="warp-rows=false vector-bytes=0" -split-input-file | FileCheck %s --check-prefix=NOWARP
// RUN: not threadbind-opt %s -threadbind-map-reductions=unroll=17 -split-input-file 2>&1 | FileCheck %s --check-prefix=BADUNROLL
// RUN: not threadbind-opt %s -threadbind-map-reductions=threads-per-block=48 -split-input-file 2>&1 | FileCheck %s --check-prefix=BADBLOCK
// BADUNROLL: error: 'scf.parallel' op cannot be mapped with unroll = 17: it must be 1 to 16, or 0 to choose
// BADBLOCK: error: 'scf.parallel' op cannot be mapped with 48 threads a block: a reduction's blocks must be whole warps, a multiple of 32 up to 1024

// A sum: device scratch for one partial a block; the first kernel folds a
// grid-stride share per thread from -0.0 (the identity that keeps -0.0),
// all-reduces the block and has thread 0 store the partial; the second, one
// block, folds the partials, adds the init value once and makes the store.
// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<1xf32>)
// CHECK-DAG: %[[INIT:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: %[[LIMIT:.*]] = call @threadbind_max_resident_blocks
// CHECK: %[[LESS:.*]] = arith.minui %{{.*}}, %[[LIMIT]]
// CHECK: %[[GRID:.*]] = arith.maxui %[[LESS]], %{{.*}}
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[P:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[GRID]]) : memref<?xf32>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%[[GX:.*]] = %[[GRID]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BDX:.*]] = %c256
// CHECK: %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// The main loop takes 4 elements a stride apart into 4 accumulators.
// CHECK: %[[MAIN:.*]]:5 = scf.for %{{.*}} = %[[START:.*]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[START]]) -> (f32, f32, f32, f32, index) {
// CHECK-COUNT-4: memref.load %[[X]]
// CHECK: scf.yield
// CHECK: %[[F1:.*]] = arith.addf %[[MAIN]]#0, %[[MAIN]]#1
// CHECK: %[[F2:.*]] = arith.addf %[[F1]], %[[MAIN]]#2
// CHECK: %[[F3:.*]] = arith.addf %[[F2]], %[[MAIN]]#3
// The rest, one at a time, from where the main loop stopped.
// CHECK: %[[ACC:.*]] = scf.for %[[I:.*]] = %[[MAIN]]#4 to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[F3]]) -> (f32) {
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[V]] : f32
// CHECK: scf.yield %[[S]]
// CHECK: %[[BLOCK:.*]] = gpu.all_reduce add %[[ACC]] uniform
// CHECK: %[[LEAD:.*]] = arith.cmpi eq, %[[TX]], %c0
// CHECK: scf.if %[[LEAD]] {
// CHECK: memref.store %[[BLOCK]], %[[P]][%[[BX]]]
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}) threads(%[[TX2:.*]], %{{.*}}, %{{.*}}) in (%[[BDX2:.*]] = %c256
// CHECK: %[[ACC2:.*]] = scf.for %[[J:.*]] = %[[TX2]] to %[[GRID]] step %[[BDX2]]
// CHECK: memref.load %[[P]][%[[J]]]
// CHECK: %[[TOTAL:.*]] = gpu.all_reduce add %[[ACC2]] uniform
// CHECK: scf.if
// CHECK: %[[RESULT:.*]] = arith.addf %[[INIT]], %[[TOTAL]] : f32
// CHECK: memref.store %[[RESULT]], %[[OUT]][%c0]
// CHECK: %[[T2:.*]] = gpu.wait async
// CHECK: %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[P]]
// CHECK: gpu.wait [%[[T3]]]
// CHECK-NOT: scf.parallel
// CHECK-NOT: memref.store
// CHECK: return
// CHECK: func.func private @threadbind_max_resident_blocks(index) -> index
// A static cap replaces the host's answer.
// By default a thread folds 8 elements an iteration.
// DEFAULT-LABEL: func.func @sum
// DEFAULT: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, index)
// Without unrolling, one loop takes every element.
// ONE-LABEL: func.func @sum
// ONE: gpu.launch
// ONE: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// ONE-NOT: scf.for
// ONE: gpu.all_reduce
// CAP-LABEL: func.func @sum
// CAP-NOT: call @threadbind_max_resident_blocks
// CAP: arith.minui %{{.*}}, %c64
func.func @sum(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1.5 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{reduction mapped: 1 value(s), 256 threads a block fold a grid-stride share each (8 elements an iteration, to keep 8 loads in flight), warp shuffles and shared memory combine each block, and a second one-block kernel combines the blocks and the init value}}
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %s, %out[%c0] : memref<1xf32>
  return
}

// -----

// Two results, each with its own kind and identity, the result stored
// twice; a loop from 2 with step 3.
// Two loads an element: by default 4 elements an iteration, 8 loads.
// DEFAULT-LABEL: func.func @two
// DEFAULT: scf.for {{.*}} -> (i32, f32, i32, f32, i32, f32, i32, f32, index)
// CHECK-LABEL: func.func @two
// CHECK-COUNT-2: gpu.alloc async
// CHECK: gpu.launch
// CHECK-DAG: arith.constant -2147483648 : i32
// CHECK-DAG: arith.constant 0xFF800000 : f32
// CHECK: scf.for
// CHECK: arith.maxsi
// CHECK: arith.maximumf
// CHECK: gpu.all_reduce maxsi
// CHECK: gpu.all_reduce maximumf
// CHECK: gpu.launch
// CHECK: scf.if
// The results first, then what the host did with them, in its order.
// CHECK: %[[M:.*]] = arith.maxsi
// CHECK: %[[F:.*]] = arith.maximumf
// CHECK: memref.store %[[M]], %{{.*}}[%c0]
// CHECK: memref.store %[[M]], %{{.*}}[%c1]
// CHECK: memref.store %[[F]]
// CHECK-COUNT-2: gpu.dealloc async
func.func @two(%x: memref<?xi32>, %y: memref<?xf32>, %out: memref<2xi32>,
               %fout: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i0 = arith.constant 0 : i32
  %f0 = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xi32>
  // expected-remark @below {{reduction mapped: 2 value(s)}}
  %m, %f = scf.parallel (%i) = (%c2) to (%n) step (%c3) init (%i0, %f0) -> (i32, f32) {
    %v = memref.load %x[%i] : memref<?xi32>
    %w = memref.load %y[%i] : memref<?xf32>
    scf.reduce(%v, %w : i32, f32) {
    ^bb0(%a: i32, %b: i32):
      %r = arith.maxsi %b, %a : i32
      scf.reduce.return %r : i32
    }, {
    ^bb0(%a: f32, %b: f32):
      %r = arith.maximumf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %m, %out[%c0] : memref<2xi32>
  memref.store %m, %out[%c1] : memref<2xi32>
  memref.store %f, %fout[%c0] : memref<1xf32>
  return
}

// -----

// Loops without reductions are the loop mapping's.
// CHECK-LABEL: func.func @plain
// CHECK: scf.parallel
// CHECK-NOT: gpu.launch
func.func @plain(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %x[%i] : memref<?xf32>
  }
  return
}

// -----

// Row sums: a block a row, launched only when there is a row; block b
// sums row b with a strided share a thread, and thread 0 adds the init
// value and stores out[b]. The row length is known on the host: rows of
// up to 512 elements get one-warp blocks, longer ones 256 threads.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK: %[[COLS:.*]] = memref.dim %[[M]], %c1
// CHECK: %[[LENGTH:.*]] = arith.maxsi
// CHECK: %[[SHORT:.*]] = arith.cmpi ule, %[[LENGTH]], %c512
// CHECK: scf.if %[[SHORT]] {
// CHECK: %[[WROWS:.*]] = arith.maxsi
// CHECK: %[[WANY:.*]] = arith.cmpi sgt, %[[WROWS]], %{{.*}}
// CHECK: scf.if %[[WANY]] {
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[WROWS]], {{.*}} threads({{.*}}) in (%{{.*}} = %c32,
// CHECK: gpu.all_reduce add
// CHECK: } else {
// CHECK: %[[ROWS:.*]] = arith.maxsi
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[ROWS]], %{{.*}}
// CHECK: scf.if %[[ANY]] {
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ROWS]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BDX:.*]] = %c256
// CHECK: %[[ROWB:.*]] = arith.muli %[[BX]], %c1
// CHECK: %[[ROW:.*]] = arith.addi %c0, %[[ROWB]]
// CHECK: scf.for
// CHECK: memref.load %[[M]][%[[ROW]], %{{.*}}]
// CHECK: %[[TOTAL:.*]] = gpu.all_reduce add %{{.*}} uniform
// CHECK: arith.cmpi eq, %[[TX]], %c0
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[TOTAL]] : f32
// CHECK: memref.store %[[SUM]], %[[OUT]][%[[ROW]]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: gpu.alloc
// CHECK: return
// With warp-rows=false, every row gets a 256-thread block.
// NOWARP-LABEL: func.func @row_sums
// NOWARP-NOT: arith.cmpi ule
// NOWARP: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// NOWARP-NOT: gpu.launch
// NOWARP: return
func.func @row_sums(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  // expected-remark @below {{row reduction mapped: one warp a row (a block of 32 threads) where a row has at most 512 elements, else one block a row, 256 threads fold a strided share of it each (8 elements an iteration), warp shuffles and shared memory combine them, and thread 0 adds the init value and stores}}
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// Row i sums its first i + 1 elements: the length depends on the row, so
// the host cannot choose by it, and every row gets a block.
// CHECK-LABEL: func.func @triangle
// CHECK-NOT: arith.cmpi ule
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @triangle(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  // expected-remark @below {{row reduction mapped: one block a row, 256 threads fold}}
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %end = arith.addi %i, %c1 : index
    %s = scf.parallel (%j) = (%c0) to (%end) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// A row whose body does more than reduce and store its result (here it
// also writes the row it reduced) runs a block a row as a program: the
// all-reduce gives every thread the sum, after which thread 0 alone stores,
// each store once a row.
// CHECK-LABEL: func.func @block_rows
// CHECK: gpu.launch
// CHECK: gpu.all_reduce
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[LEADER]] {
// CHECK-NEXT: memref.store
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: memref.store
// CHECK-NOT: scf.parallel
func.func @block_rows(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  // expected-remark @below {{one block per outer iteration: 256 threads share each of its 1 reductions and 0 other nested loops}}
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%zero) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %out[%i] : memref<?xf32>
    memref.store %zero, %m[%i, %c0] : memref<?x?xf32>
  }
  return
}
