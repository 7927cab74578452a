// Reductions of index values (counts, largest and smallest positions)
// and of i1 ones (any, all, parity, a signed max, where true is -1) map:
// they reduce in i64 and i8, cast back after, and print what the original
// loops print. A full reduction, a row reduction
// (a count a row) and one index reduction beside an f32 sum. Lengths 0, 1,
// 33 and 1000; grids small enough that threads fold many elements.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-reductions="threads-per-block=64 max-blocks=3 remarks" 2>%t.remarks > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=32" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.pipeline
// RUN: diff %t.ref %t.pipeline
// RUN: threadbind-compile %s -o %t.ptx
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// No loop is left to one thread.
// MAPPED-LABEL: func.func @stats
// MAPPED: gpu.all_reduce
// MAPPED-NOT: scf.parallel {{.*}} -> index
// MAPPED-LABEL: func.func @flags
// MAPPED: gpu.all_reduce
// MAPPED-NOT: scf.parallel {{.*}} -> i1
// REMARKS-COUNT-3: remark: reduces index or i1 values: in i64 or i8, cast back after

// (vector.print shows index values unsigned: -1 is 2^64 - 1.)
// CHECK: stats 0 0 18446744073709551615 1000000 0
// CHECK-NEXT: flags 0 1 0 1
// CHECK: stats 1 1 0 0 5
// CHECK-NEXT: flags 1 1 1 1
// CHECK: stats 33 5 27 0 3
// CHECK-NEXT: flags 1 0 0 0
// CHECK: stats 1000 143 993 0 5
// CHECK-NEXT: flags 1 0 1 0
// CHECK: rows 4 4 3 4

// Over x[0 .. n): how many exceed 2, the last position whose value
// exceeds 2 (from -1), the first such (from 1000000), and the sum.
func.func @stats(%x: memref<?xf32>, %out: memref<3xindex>, %sum: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %none = arith.constant -1 : index
  %far = arith.constant 1000000 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r:4 = scf.parallel (%i) = (%c0) to (%n) step (%c1)
      init (%c0, %none, %far, %zero) -> (index, index, index, f32) {
    %v = memref.load %x[%i] : memref<?xf32>
    %big = arith.cmpf ogt, %v, %two : f32
    %one = arith.select %big, %c1, %c0 : index
    %last = arith.select %big, %i, %none : index
    %first = arith.select %big, %i, %far : index
    scf.reduce(%one, %last, %first, %v : index, index, index, f32) {
    ^bb0(%a: index, %b: index):
      %t = arith.addi %a, %b : index
      scf.reduce.return %t : index
    }, {
    ^bb0(%a: index, %b: index):
      %t = arith.maxsi %a, %b : index
      scf.reduce.return %t : index
    }, {
    ^bb0(%a: index, %b: index):
      %t = arith.minsi %a, %b : index
      scf.reduce.return %t : index
    }, {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %r#0, %out[%c0] : memref<3xindex>
  memref.store %r#1, %out[%c1] : memref<3xindex>
  memref.store %r#2, %out[%c2] : memref<3xindex>
  memref.store %r#3, %sum[%c0] : memref<1xf32>
  return
}

// Over x[0 .. n): whether any value exceeds 2, whether all exceed -3,
// whether an odd number are positive, and the signed max of "exceeds 2"
// (true is -1 as a signed i1, so that max is "all exceed 2").
func.func @flags(%x: memref<?xf32>, %out: memref<4xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %false = arith.constant false
  %true = arith.constant true
  %two = arith.constant 2.0 : f32
  %m3 = arith.constant -3.0 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r:4 = scf.parallel (%i) = (%c0) to (%n) step (%c1)
      init (%false, %true, %false, %true) -> (i1, i1, i1, i1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %big = arith.cmpf ogt, %v, %two : f32
    %above = arith.cmpf ogt, %v, %m3 : f32
    %pos = arith.cmpf ogt, %v, %zero : f32
    scf.reduce(%big, %above, %pos, %big : i1, i1, i1, i1) {
    ^bb0(%a: i1, %b: i1):
      %t = arith.ori %a, %b : i1
      scf.reduce.return %t : i1
    }, {
    ^bb0(%a: i1, %b: i1):
      %t = arith.andi %a, %b : i1
      scf.reduce.return %t : i1
    }, {
    ^bb0(%a: i1, %b: i1):
      %t = arith.addi %a, %b : i1
      scf.reduce.return %t : i1
    }, {
    ^bb0(%a: i1, %b: i1):
      %t = arith.maxsi %a, %b : i1
      scf.reduce.return %t : i1
    }
  }
  memref.store %r#0, %out[%c0] : memref<4xi1>
  memref.store %r#1, %out[%c1] : memref<4xi1>
  memref.store %r#2, %out[%c2] : memref<4xi1>
  memref.store %r#3, %out[%c3] : memref<4xi1>
  return
}

// How many of each row's values are negative.
func.func @negatives(%m: memref<?x?xf32>, %out: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %s = scf.parallel (%k) = (%c0) to (%cols) step (%c1) init (%c0) -> index {
      %v = memref.load %m[%r, %k] : memref<?x?xf32>
      %neg = arith.cmpf olt, %v, %zero : f32
      %one = arith.select %neg, %c1, %c0 : index
      scf.reduce(%one : index) {
      ^bb0(%a: index, %b: index):
        %t = arith.addi %a, %b : index
        scf.reduce.return %t : index
      }
    }
    memref.store %s, %out[%r] : memref<?xindex>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c1000 = arith.constant 1000 : index
  // x[i] = i mod 7 - 3 + 5 * [i == 0]: values -3 .. 3, and 5 at 0.
  %x = memref.alloc(%c1000) : memref<?xf32>
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c1000 step %c1 {
    %r = arith.remui %i, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    %is0 = arith.cmpi eq, %i, %c0 : index
    %five = arith.constant 5.0 : f32
    %w = arith.select %is0, %five, %v : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  %out = memref.alloc() : memref<3xindex>
  %flagsOut = memref.alloc() : memref<4xi1>
  %sum = memref.alloc() : memref<1xf32>
  %lengths = arith.constant dense<[0, 1, 33, 1000]> : vector<4xindex>
  %c4 = arith.constant 4 : index
  scf.for %t = %c0 to %c4 step %c1 {
    %len = vector.extract %lengths[%t] : index from vector<4xindex>
    %view = memref.subview %x[0] [%len] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
    %v = memref.cast %view : memref<?xf32, strided<[1]>> to memref<?xf32>
    func.call @stats(%v, %out, %sum) : (memref<?xf32>, memref<3xindex>, memref<1xf32>) -> ()
    %a = memref.load %out[%c0] : memref<3xindex>
    %b = memref.load %out[%c1] : memref<3xindex>
    %c = memref.load %out[%c2] : memref<3xindex>
    %s = memref.load %sum[%c0] : memref<1xf32>
    vector.print str "stats "
    vector.print %len : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %a : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %b : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %c : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %s : f32
    func.call @flags(%v, %flagsOut) : (memref<?xf32>, memref<4xi1>) -> ()
    vector.print str "flags "
    scf.for %k = %c0 to %c4 step %c1 {
      %f = memref.load %flagsOut[%k] : memref<4xi1>
      %fi = arith.extui %f : i1 to i32
      vector.print %fi : i32 punctuation <no_punctuation>
      vector.print str " "
    }
    vector.print str "\n"
  }
  // 4 rows of 9: row r holds x[9 r .. 9 r + 9).
  %c4r = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %m = memref.alloc(%c4r, %c9) : memref<?x?xf32>
  scf.for %r = %c0 to %c4r step %c1 {
    scf.for %k = %c0 to %c9 step %c1 {
      %base = arith.muli %r, %c9 : index
      %i = arith.addi %base, %k : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %m[%r, %k] : memref<?x?xf32>
    }
  }
  %counts = memref.alloc(%c4r) : memref<?xindex>
  func.call @negatives(%m, %counts) : (memref<?x?xf32>, memref<?xindex>) -> ()
  vector.print str "rows "
  scf.for %r = %c0 to %c4r step %c1 {
    %n = memref.load %counts[%r] : memref<?xindex>
    vector.print %n : index punctuation <no_punctuation>
    vector.print str " "
  }
  vector.print str "\n"
  return
}
