// Reductions that travel through the block combine as integers, and the
// atomic cross-block combine. Their results are checked on the CPU in
// test/Integration/Reductions/cpu-regions.mlir and on a GPU by
// scripts/gpu-check.sh --reductions.
// RUN: threadbind-opt %s -threadbind-map-reductions="unroll=1 vector-bytes=0" -canonicalize -split-input-file | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-reductions="unroll=1 cross-block=atomic vector-bytes=0" -canonicalize -split-input-file | FileCheck %s --check-prefix=ATOMIC
// RUN: threadbind-opt %s -threadbind-map-reductions="cross-block=atomic remarks" -split-input-file -verify-diagnostics -o /dev/null

// A combiner region has no identity: each thread starts empty, takes its
// first element as it is, and the block combines value and flag in one i64.
// CHECK-LABEL: func.func @absmax
// CHECK: %[[VALUES:.*]], %{{.*}} = gpu.alloc async {{.*}} : memref<?xf32>
// CHECK: %[[FLAGS:.*]], %{{.*}} = gpu.alloc async {{.*}} : memref<?xi8>
// CHECK: gpu.launch
// CHECK: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args(%[[V:.*]] = %{{.*}}, %[[FULL:.*]] = %false) -> (f32, i1)
// CHECK:   %[[X:.*]] = memref.load
// CHECK:   %[[M:.*]] = arith.maxnumf
// CHECK:   %[[PICK:.*]] = arith.select %[[FULL]], %[[M]], %[[X]] : f32
// CHECK:   scf.yield %[[PICK]], %true
// CHECK: %[[BITS:.*]] = arith.bitcast %[[ACC]]#0 : f32 to i32
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK: %[[FLAG:.*]] = arith.extui %[[ACC]]#1 : i1 to i64
// CHECK: %[[HIGH:.*]] = arith.shli %[[FLAG]], %c32_i64
// CHECK: %[[PACKED:.*]] = arith.ori %[[WIDE]], %[[HIGH]] : i64
// CHECK: %[[BLOCK:.*]] = gpu.all_reduce %[[PACKED]] uniform {
// CHECK:   arith.maxnumf
// CHECK:   gpu.yield %{{.*}} : i64
// CHECK: } : (i64) -> i64
// CHECK: scf.if
// CHECK:   memref.store %{{.*}}, %[[VALUES]][
// CHECK:   memref.store %{{.*}}, %[[FLAGS]][
// The second kernel combines the init value only where a block held
// something.
// CHECK: gpu.launch
// CHECK: gpu.all_reduce %{{.*}} uniform {
// CHECK: } : (i64) -> i64
// CHECK: scf.if
// CHECK:   %[[WITH:.*]] = arith.maxnumf
// CHECK:   %[[R:.*]] = arith.select %{{.*}}, %[[WITH]], %cst
// CHECK:   memref.store %[[R]], %arg1[%c0]
// The region has no atomic: the blocks' results go through the second
// kernel in the atomic mode too.
// ATOMIC-LABEL: func.func @absmax
// ATOMIC-NOT: atomic_rmw
// ATOMIC: return
func.func @absmax(%x: memref<?xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-remark @below {{reduction mapped: 1 value(s), 256 threads a block fold a grid-stride share each (8 elements an iteration, to keep 8 loads in flight), warp shuffles and shared memory combine each block, and a second one-block kernel combines the blocks and the init value (no hardware atomic for 1 combiner(s))}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %aa = math.absf %a : f32
      %bb = math.absf %b : f32
      %m = arith.maxnumf %aa, %bb : f32
      scf.reduce.return %m : f32
    }
  }
  memref.store %r, %out[%c0] : memref<1xf32>
  return
}

// -----

// f16 travels through the shuffles as the low half of an i32.
// CHECK-LABEL: func.func @sum_f16
// CHECK: gpu.launch
// CHECK: %[[ACC:.*]] = scf.for {{.*}} -> (f16)
// CHECK: %[[BITS:.*]] = arith.bitcast %[[ACC]] : f16 to i16
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK: %[[BLOCK:.*]] = gpu.all_reduce %[[WIDE]] uniform {
// CHECK:   arith.addf %{{.*}}, %{{.*}} : f16
// CHECK:   gpu.yield %{{.*}} : i32
// CHECK: } : (i32) -> i32
// CHECK: %[[NARROW:.*]] = arith.trunci %[[BLOCK]] : i32 to i16
// CHECK: %[[SUM:.*]] = arith.bitcast %[[NARROW]] : i16 to f16
// CHECK: memref.store %[[SUM]]
func.func @sum_f16(%x: memref<?xf16>, %out: memref<1xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 1.0 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  // expected-remark @below {{reduction mapped: 1 value(s), 256 threads a block fold a grid-stride share each (8 elements an iteration, to keep 8 loads in flight), warp shuffles and shared memory combine each block, and a second one-block kernel combines the blocks and the init value (no hardware atomic for 1 combiner(s))}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f16 {
    %v = memref.load %x[%i] : memref<?xf16>
    scf.reduce(%v : f16) {
    ^bb0(%a: f16, %b: f16):
      %m = arith.addf %a, %b : f16
      scf.reduce.return %m : f16
    }
  }
  memref.store %r, %out[%c0] : memref<1xf16>
  return
}

// -----

// The i64 maximum's identity, INT64_MIN, is two different 32-bit words:
// two memsets set the accumulator, and each block's leader combines into it
// atomically; the second kernel reads it and combines the init value.
// ATOMIC-LABEL: func.func @maxsi
// ATOMIC-DAG: %[[LOW:.*]] = arith.constant 0 : i32
// ATOMIC-DAG: %[[HIGH:.*]] = arith.constant -2147483648 : i32
// ATOMIC: %[[RAW:.*]], %{{.*}} = gpu.alloc async {{.*}} () : memref<8xi8>
// ATOMIC: %[[W0:.*]] = memref.view %[[RAW]][%c0][] : memref<8xi8> to memref<1xi32>
// ATOMIC: gpu.memset async [%{{.*}}] %[[W0]], %[[LOW]]
// ATOMIC: %[[W1:.*]] = memref.view %[[RAW]][%c4][] : memref<8xi8> to memref<1xi32>
// ATOMIC: gpu.memset async [%{{.*}}] %[[W1]], %[[HIGH]]
// ATOMIC: %[[ACC:.*]] = memref.view %[[RAW]][%c0][] : memref<8xi8> to memref<1xi64>
// ATOMIC: gpu.launch
// ATOMIC: %[[BLOCK:.*]] = gpu.all_reduce maxsi
// ATOMIC: scf.if
// ATOMIC:   memref.atomic_rmw maxs %[[BLOCK]], %[[ACC]][%c0]
// ATOMIC: gpu.launch
// ATOMIC-NOT: scf.for
// ATOMIC: scf.if
// ATOMIC:   %[[TOTAL:.*]] = memref.load %[[ACC]][%c0]
// ATOMIC:   %[[R:.*]] = arith.maxsi %[[TOTAL]], %c5_i64
// ATOMIC:   memref.store %[[R]], %arg1[%c0]
// ATOMIC: gpu.dealloc async [%{{.*}}] %[[RAW]]
// Without the option, the blocks' results go through the second kernel.
// CHECK-LABEL: func.func @maxsi
// CHECK-NOT: atomic_rmw
// CHECK: return
func.func @maxsi(%x: memref<?xi64>, %out: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 5 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  // expected-remark @below {{reduction mapped: 1 value(s), 256 threads a block fold a grid-stride share each (8 elements an iteration, to keep 8 loads in flight), warp shuffles and shared memory combine each block, each block combines its result into an accumulator with a hardware atomic, and a second one-block kernel combines the init value}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %m = arith.maxsi %a, %b : i64
      scf.reduce.return %m : i64
    }
  }
  memref.store %r, %out[%c0] : memref<1xi64>
  return
}
