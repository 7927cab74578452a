// Row reductions mapped one block a row, run on the CPU through the
// emulation (all-reduces in phases), print what the original loops print:
// row sums and row maxima of R x C matrices for (R, C) in (0, 5), (3, 0),
// (1, 1), (5, 31), (7, 33), (4, 1000) and (2, 5000), by default (rows of
// up to 512 elements in one-warp blocks, the last two in 256-thread ones)
// and with 32-thread blocks unrolled by 3. Values are small integers,
// so the sums are exact in any order.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-reductions -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=32 unroll=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small

// Each shape prints its row count, the total of its row sums and the total
// of its row maxima. No rows: nothing. Empty rows: the init values alone,
// 3 x 0.5 and -100 - 99 - 98.
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 3
// CHECK-NEXT: 1.5
// CHECK-NEXT: -297

// out[i] = 0.5 + sum over j of m[i, j]
func.func @row_sums(%m: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %s = scf.parallel (%j) = (%c0) to (%c) step (%c1) init (%half) -> f32 {
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

// out[i] = max(-100 + i, max over odd j of m[i, j]): the init and the inner
// bounds depend on the row.
func.func @row_max(%m: memref<?x?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %base = arith.constant -100 : i32
  %r = memref.dim %m, %c0 : memref<?x?xi32>
  %c = memref.dim %m, %c1 : memref<?x?xi32>
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    %ii = arith.index_cast %i : index to i32
    %init = arith.addi %base, %ii : i32
    %s = scf.parallel (%j) = (%c1) to (%c) step (%c2) init (%init) -> i32 {
      %v = memref.load %m[%i, %j] : memref<?x?xi32>
      scf.reduce(%v : i32) {
      ^bb0(%a: i32, %b: i32):
        %t = arith.maxsi %a, %b : i32
        scf.reduce.return %t : i32
      }
    }
    memref.store %s, %out[%i] : memref<?xi32>
  }
  return
}

func.func @check(%r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c6 = arith.constant 6 : index
  %sentinel = arith.constant -999.0 : f32
  %isentinel = arith.constant -999 : i32
  %m = memref.alloc(%r, %c) : memref<?x?xf32>
  %mi = memref.alloc(%r, %c) : memref<?x?xi32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      // (7 i + j) mod 13 - 6
      %a = arith.muli %i, %c7 : index
      %b = arith.addi %a, %j : index
      %m13 = arith.remui %b, %c13 : index
      %v = arith.subi %m13, %c6 : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %m[%i, %j] : memref<?x?xf32>
      memref.store %vi, %mi[%i, %j] : memref<?x?xi32>
    }
  }
  %out = memref.alloc(%r) : memref<?xf32>
  %outi = memref.alloc(%r) : memref<?xi32>
  scf.for %i = %c0 to %r step %c1 {
    memref.store %sentinel, %out[%i] : memref<?xf32>
    memref.store %isentinel, %outi[%i] : memref<?xi32>
  }
  call @row_sums(%m, %out) : (memref<?x?xf32>, memref<?xf32>) -> ()
  call @row_max(%mi, %outi) : (memref<?x?xi32>, memref<?xi32>) -> ()
  // Print the row count, the sums' total and the maxima's total.
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %ts = scf.for %i = %c0 to %r step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %out[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  %tm = scf.for %i = %c0 to %r step %c1 iter_args(%acc = %izero) -> i32 {
    %v = memref.load %outi[%i] : memref<?xi32>
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  vector.print %r : index
  vector.print %ts : f32
  vector.print %tm : i32
  memref.dealloc %m : memref<?x?xf32>
  memref.dealloc %mi : memref<?x?xi32>
  memref.dealloc %out : memref<?xf32>
  memref.dealloc %outi : memref<?xi32>
  return
}

func.func @main() {
  %shapes = memref.get_global @shapes : memref<7x2xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %k = %c0 to %c7 step %c1 {
    %r = memref.load %shapes[%k, %c0] : memref<7x2xindex>
    %c = memref.load %shapes[%k, %c1] : memref<7x2xindex>
    func.call @check(%r, %c) : (index, index) -> ()
  }
  return
}

memref.global "private" constant @shapes : memref<7x2xindex> =
    dense<[[0, 5], [3, 0], [1, 1], [5, 31], [7, 33], [4, 1000], [2, 5000]]>
