// Stencils widened: the loads of a row at offsets that are not a whole
// vector apart (j-1, j, j+1) take their lanes from the row's aligned
// vectors and the few elements past them, loaded one at a time; the
// vectors start where the store's do, so one peel aligns them all. Rows
// whose starts disagree (an odd row length against the row above) run the
// loop as written. Cover launches of two and three dimensions are widened
// along x (a thread a vector); in a grid-stride nest a stencil's rows stay
// scalar.
//
// Checked in CPU emulation against the original: a 5-point stencil from 1
// (the mapping's start rounded down to 0 and the first iteration skipped
// in a branch), a 3-D stencil of corners and edges (PolyBench conv3d's
// reads, whose rows are read at one offset each), a 1-D stencil reaching 5
// back and 6 ahead (three vectors a row), an i16 3-point stencil (8 lanes)
// and an f64 one (2), at empty, one-element, ragged and odd sizes, and at
// 70000 rows (in 32x1 blocks, more than 65535 blocks along y: the cover
// launch's copy that loops along y); narrowed to i32 too. The grid-stride
// mapping of the same program stays right. A mutant that takes the wrong
// lane of a row's vector changes the result.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s -threadbind-map-to-gpu="sequential-fallback=false grid-policy=cover" "-threadbind-widen-accesses=nested-loops remarks" -o %t.mlir 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=LAUNCHES < %t.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %t.mlir -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow
// RUN: threadbind-opt %s -threadbind-map-to-gpu="sequential-fallback=false grid-policy=cover block-shape=32,1,1" -threadbind-widen-accesses=nested-loops -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.looping
// RUN: diff %t.ref %t.looping
// RUN: threadbind-opt %s -threadbind-map-to-gpu="sequential-fallback=false block-shape=8,4 max-blocks=3" "-threadbind-widen-accesses=nested-loops remarks" -o %t.stride.mlir 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: threadbind-opt %t.stride.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.stride
// RUN: diff %t.ref %t.stride
// RUN: sed -e 's/\[3\] : i32 from vector<4xi32>/[2] : i32 from vector<4xi32>/' %t.mlir > %t.mutant.mlir
// RUN: not diff -q %t.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// REMARK: remark: widened: 4 elements a vector, 1 vector a thread an iteration, 3 vector loads and 1 vector store, the shifted reads of 3 rows taken from its vectors and 2 elements loaded singly
// REMARK: remark: widened: 4 elements a vector, 1 vector a thread an iteration, 9 vector loads and 1 vector store, the shifted reads of 9 rows taken from its vectors and 8 elements loaded singly
// REMARK: remark: widened: 4 elements a vector, 1 vector a thread an iteration, 3 vector loads and 1 vector store, the shifted reads of 1 row taken from its vectors and 3 elements loaded singly
// REMARK: remark: widened: 8 elements a vector, 1 vector a thread an iteration, 1 vector load and 1 vector store, the shifted reads of 1 row taken from its vectors and 2 elements loaded singly
// REMARK: remark: widened: 2 elements a vector, 1 vector a thread an iteration, 1 vector load and 1 vector store, the shifted reads of 1 row taken from its vectors and 2 elements loaded singly

// STRIDE-COUNT-5: remark: not widened: its rows are read at shifted offsets (a stencil's), which are widened in cover launches (--grid-policy=cover) and in loops that are alone in their grid-stride launch, not in a grid-stride nest

// The 5-point stencil: the row read at j-1, j and j+1 is a vector and an
// element either side of it; the grid shrinks along x to a thread a vector
// where the host finds every row starts alike.
// The guard of the launch along x goes; the original iteration stays for
// rows whose pointers disagree on alignment, and a copy of the launch as it
// was runs where the host finds the rows' starts may differ (an outer
// stride not a whole number of vectors).
// CHECK-LABEL: func.func @five_point(
// CHECK: gpu.launch
// CHECK: %[[MID:.*]] = vector.load %arg0[%{{.*}}, %[[FIRST:.*]]] {alignment = 16 : i64} : memref<?x?xi32>, vector<4xi32>
// CHECK-DAG: %[[BEFORE:.*]] = arith.addi %[[FIRST]], %{{c-1(_[0-9]+)?}} : index
// CHECK-DAG: memref.load %arg0[%{{.*}}, %[[BEFORE]]] : memref<?x?xi32>
// CHECK-DAG: %[[AFTER:.*]] = arith.addi %[[FIRST]], %{{c4(_[0-9]+)?}} : index
// CHECK-DAG: memref.load %arg0[%{{.*}}, %[[AFTER]]] : memref<?x?xi32>
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}, %[[FIRST]]] {alignment = 16 : i64}
// CHECK: } else {
// CHECK: arith.cmpi sge
// CHECK-LABEL: func.func @corners(

// Two launches a stencil (the cover launch and its copy looping along y),
// each widened and as it was.
// LAUNCHES-LABEL: func.func @five_point(
// LAUNCHES-COUNT-4: gpu.launch blocks
// LAUNCHES-NOT: gpu.launch blocks
// LAUNCHES-LABEL: func.func @corners(

// The 3-D stencil: nine rows, each one vector, and the elements past them.
// CHECK-COUNT-9: vector.load %arg0[
// CHECK: vector.store

// OUT-COUNT-8: sums2
// OUT-COUNT-6: sums3

// b[i][j] = a[i][j-1] + a[i][j] + a[i][j+1] + a[i-1][j] + a[i+1][j] on the
// interior.
func.func @five_point(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  %m1 = arith.subi %m, %c1 : index
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%i, %j) = (%c1, %c1) to (%m1, %n1) step (%c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %a[%i, %jm] : memref<?x?xi32>
    %c = memref.load %a[%i, %j] : memref<?x?xi32>
    %e = memref.load %a[%i, %jp] : memref<?x?xi32>
    %no = memref.load %a[%im, %j] : memref<?x?xi32>
    %so = memref.load %a[%ip, %j] : memref<?x?xi32>
    %s1 = arith.addi %w, %c : i32
    %s2 = arith.addi %s1, %e : i32
    %s3 = arith.addi %s2, %no : i32
    %s4 = arith.addi %s3, %so : i32
    memref.store %s4, %b[%i, %j] : memref<?x?xi32>
  }
  return
}

// c[k][i][j] = 2 a[k-1][i-1][j-1] + 3 a[k+1][i-1][j-1] + 5 a[k][i-1][j]
//   + 7 a[k][i][j] + 11 a[k][i+1][j] + 13 a[k-1][i-1][j+1]
//   + 17 a[k+1][i-1][j+1] + 19 a[k-1][i][j+1] + 23 a[k+1][i][j+1]
//   + 29 a[k-1][i+1][j+1] + 31 a[k+1][i+1][j+1] on the interior.
func.func @corners(%a: memref<?x?x?xi32>, %c: memref<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w2 = arith.constant 2 : i32
  %w3 = arith.constant 3 : i32
  %w5 = arith.constant 5 : i32
  %w7 = arith.constant 7 : i32
  %w11 = arith.constant 11 : i32
  %w13 = arith.constant 13 : i32
  %w17 = arith.constant 17 : i32
  %w19 = arith.constant 19 : i32
  %w23 = arith.constant 23 : i32
  %w29 = arith.constant 29 : i32
  %w31 = arith.constant 31 : i32
  %l = memref.dim %a, %c0 : memref<?x?x?xi32>
  %m = memref.dim %a, %c1 : memref<?x?x?xi32>
  %n = memref.dim %a, %c2 : memref<?x?x?xi32>
  %l1 = arith.subi %l, %c1 : index
  %m1 = arith.subi %m, %c1 : index
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%k, %i, %j) = (%c1, %c1, %c1) to (%l1, %m1, %n1)
      step (%c1, %c1, %c1) {
    %km = arith.subi %k, %c1 : index
    %kp = arith.addi %k, %c1 : index
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %a1 = memref.load %a[%km, %im, %jm] : memref<?x?x?xi32>
    %a2 = memref.load %a[%kp, %im, %jm] : memref<?x?x?xi32>
    %a3 = memref.load %a[%k, %im, %j] : memref<?x?x?xi32>
    %a4 = memref.load %a[%k, %i, %j] : memref<?x?x?xi32>
    %a5 = memref.load %a[%k, %ip, %j] : memref<?x?x?xi32>
    %a6 = memref.load %a[%km, %im, %jp] : memref<?x?x?xi32>
    %a7 = memref.load %a[%kp, %im, %jp] : memref<?x?x?xi32>
    %a8 = memref.load %a[%km, %i, %jp] : memref<?x?x?xi32>
    %a9 = memref.load %a[%kp, %i, %jp] : memref<?x?x?xi32>
    %a10 = memref.load %a[%km, %ip, %jp] : memref<?x?x?xi32>
    %a11 = memref.load %a[%kp, %ip, %jp] : memref<?x?x?xi32>
    %p1 = arith.muli %a1, %w2 : i32
    %p2 = arith.muli %a2, %w3 : i32
    %p3 = arith.muli %a3, %w5 : i32
    %p4 = arith.muli %a4, %w7 : i32
    %p5 = arith.muli %a5, %w11 : i32
    %p6 = arith.muli %a6, %w13 : i32
    %p7 = arith.muli %a7, %w17 : i32
    %p8 = arith.muli %a8, %w19 : i32
    %p9 = arith.muli %a9, %w23 : i32
    %p10 = arith.muli %a10, %w29 : i32
    %p11 = arith.muli %a11, %w31 : i32
    %s2 = arith.addi %p1, %p2 : i32
    %s3 = arith.addi %s2, %p3 : i32
    %s4 = arith.addi %s3, %p4 : i32
    %s5 = arith.addi %s4, %p5 : i32
    %s6 = arith.addi %s5, %p6 : i32
    %s7 = arith.addi %s6, %p7 : i32
    %s8 = arith.addi %s7, %p8 : i32
    %s9 = arith.addi %s8, %p9 : i32
    %s10 = arith.addi %s9, %p10 : i32
    %s11 = arith.addi %s10, %p11 : i32
    memref.store %s11, %c[%k, %i, %j] : memref<?x?x?xi32>
  }
  return
}

// b[i][j] = a[i][j-5] - 2 a[i][j+1] + 3 a[i][j+6], j from 5 to n - 6:
// the row spans three vectors.
func.func @wide_reach(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  %n6 = arith.subi %n, %c6 : index
  %hi = arith.maxsi %n6, %c5 : index
  scf.parallel (%i, %j) = (%c0, %c5) to (%m, %hi) step (%c1, %c1) {
    %jm = arith.subi %j, %c5 : index
    %jp = arith.addi %j, %c1 : index
    %jq = arith.addi %j, %c6 : index
    %x = memref.load %a[%i, %jm] : memref<?x?xi32>
    %y = memref.load %a[%i, %jp] : memref<?x?xi32>
    %z = memref.load %a[%i, %jq] : memref<?x?xi32>
    %y2 = arith.muli %y, %two : i32
    %z3 = arith.muli %z, %three : i32
    %d = arith.subi %x, %y2 : i32
    %s = arith.addi %d, %z3 : i32
    memref.store %s, %b[%i, %j] : memref<?x?xi32>
  }
  return
}

// i16: b[i][j] = a[i][j-1] - a[i][j+1] on the interior of each row.
func.func @halves(%a: memref<?x?xi16>, %b: memref<?x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xi16>
  %n = memref.dim %a, %c1 : memref<?x?xi16>
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%i, %j) = (%c0, %c1) to (%m, %n1) step (%c1, %c1) {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %x = memref.load %a[%i, %jm] : memref<?x?xi16>
    %y = memref.load %a[%i, %jp] : memref<?x?xi16>
    %d = arith.subi %x, %y : i16
    memref.store %d, %b[%i, %j] : memref<?x?xi16>
  }
  return
}

// f64: b[i][j] = a[i][j-1] + 0.5 a[i][j+1] on the interior of each row:
// two elements apart, a whole vector of two, but neither where the store
// starts.
func.func @doubles(%a: memref<?x?xf64>, %b: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%i, %j) = (%c0, %c1) to (%m, %n1) step (%c1, %c1) {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %x = memref.load %a[%i, %jm] : memref<?x?xf64>
    %y = memref.load %a[%i, %jp] : memref<?x?xf64>
    %h = arith.mulf %y, %half : f64
    %s = arith.addf %x, %h : f64
    memref.store %s, %b[%i, %j] : memref<?x?xf64>
  }
  return
}

// a[i][j] = (i * 131 + j * 7) mod 11 - 5; b = 1 (as i32, i16 and f64)
func.func @fill(%a: memref<?x?xi32>, %b: memref<?x?xi32>,
                %ah: memref<?x?xi16>, %bh: memref<?x?xi16>,
                %ad: memref<?x?xf64>, %bd: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c131 = arith.constant 131 : index
  %one = arith.constant 1 : i32
  %oneh = arith.constant 1 : i16
  %oned = arith.constant 1.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = arith.muli %i, %c131 : index
      %y = arith.muli %j, %c7 : index
      %z = arith.addi %x, %y : index
      %r = arith.remui %z, %c11 : index
      %s = arith.subi %r, %c5 : index
      %v = arith.index_cast %s : index to i32
      %vh = arith.index_cast %s : index to i16
      %vd = arith.sitofp %v : i32 to f64
      memref.store %v, %a[%i, %j] : memref<?x?xi32>
      memref.store %one, %b[%i, %j] : memref<?x?xi32>
      memref.store %vh, %ah[%i, %j] : memref<?x?xi16>
      memref.store %oneh, %bh[%i, %j] : memref<?x?xi16>
      memref.store %vd, %ad[%i, %j] : memref<?x?xf64>
      memref.store %oned, %bd[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// sum of b[i][j] * ((i * 3 + j) mod 7 + 1), for i32, i16 and f64 (the
// f64 values are multiples of 0.5 below 2^20: exact).
func.func @checksum(%b: memref<?x?xi32>, %bh: memref<?x?xi16>,
                    %bd: memref<?x?xf64>) -> (i64, i64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i64
  %zerod = arith.constant 0.0 : f64
  %m = memref.dim %b, %c0 : memref<?x?xi32>
  %n = memref.dim %b, %c1 : memref<?x?xi32>
  %s:3 = scf.for %i = %c0 to %m step %c1
      iter_args(%acc = %zero, %acch = %zero, %accd = %zerod) -> (i64, i64, f64) {
    %t:3 = scf.for %j = %c0 to %n step %c1
        iter_args(%u = %acc, %uh = %acch, %ud = %accd) -> (i64, i64, f64) {
      %x = arith.muli %i, %c3 : index
      %y = arith.addi %x, %j : index
      %r = arith.remui %y, %c7 : index
      %k = arith.addi %r, %c1 : index
      %ki = arith.index_cast %k : index to i64
      %kd = arith.sitofp %ki : i64 to f64
      %v = memref.load %b[%i, %j] : memref<?x?xi32>
      %w = arith.extsi %v : i32 to i64
      %p = arith.muli %w, %ki : i64
      %q = arith.addi %u, %p : i64
      %vh = memref.load %bh[%i, %j] : memref<?x?xi16>
      %wh = arith.extsi %vh : i16 to i64
      %ph = arith.muli %wh, %ki : i64
      %qh = arith.addi %uh, %ph : i64
      %vd = memref.load %bd[%i, %j] : memref<?x?xf64>
      %pd = arith.mulf %vd, %kd : f64
      %qd = arith.addf %ud, %pd : f64
      scf.yield %q, %qh, %qd : i64, i64, f64
    }
    scf.yield %t#0, %t#1, %t#2 : i64, i64, f64
  }
  return %s#0, %s#1, %s#2 : i64, i64, f64
}

func.func @run2(%m: index, %n: index) {
  %a = memref.alloc(%m, %n) : memref<?x?xi32>
  %b = memref.alloc(%m, %n) : memref<?x?xi32>
  %ah = memref.alloc(%m, %n) : memref<?x?xi16>
  %bh = memref.alloc(%m, %n) : memref<?x?xi16>
  %ad = memref.alloc(%m, %n) : memref<?x?xf64>
  %bd = memref.alloc(%m, %n) : memref<?x?xf64>
  call @fill(%a, %b, %ah, %bh, %ad, %bd) : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi16>, memref<?x?xi16>, memref<?x?xf64>, memref<?x?xf64>) -> ()
  call @five_point(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s1:3 = call @checksum(%b, %bh, %bd) : (memref<?x?xi32>, memref<?x?xi16>, memref<?x?xf64>) -> (i64, i64, f64)
  call @wide_reach(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  call @halves(%ah, %bh) : (memref<?x?xi16>, memref<?x?xi16>) -> ()
  call @doubles(%ad, %bd) : (memref<?x?xf64>, memref<?x?xf64>) -> ()
  %s2:3 = call @checksum(%b, %bh, %bd) : (memref<?x?xi32>, memref<?x?xi16>, memref<?x?xf64>) -> (i64, i64, f64)
  vector.print str "sums2 "
  vector.print %s1#0 : i64
  vector.print %s2#0 : i64
  vector.print %s2#1 : i64
  vector.print %s2#2 : f64
  memref.dealloc %a : memref<?x?xi32>
  memref.dealloc %b : memref<?x?xi32>
  memref.dealloc %ah : memref<?x?xi16>
  memref.dealloc %bh : memref<?x?xi16>
  memref.dealloc %ad : memref<?x?xf64>
  memref.dealloc %bd : memref<?x?xf64>
  return
}

// a[k][i][j] = (k * 17 + i * 131 + j * 7) mod 11 - 5; c = 1
func.func @fill3(%a: memref<?x?x?xi32>, %c: memref<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c17 = arith.constant 17 : index
  %c131 = arith.constant 131 : index
  %one = arith.constant 1 : i32
  %l = memref.dim %a, %c0 : memref<?x?x?xi32>
  %m = memref.dim %a, %c1 : memref<?x?x?xi32>
  %n = memref.dim %a, %c2 : memref<?x?x?xi32>
  scf.for %k = %c0 to %l step %c1 {
    scf.for %i = %c0 to %m step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %x = arith.muli %i, %c131 : index
        %y = arith.muli %j, %c7 : index
        %w = arith.muli %k, %c17 : index
        %z0 = arith.addi %x, %y : index
        %z = arith.addi %z0, %w : index
        %r = arith.remui %z, %c11 : index
        %s = arith.subi %r, %c5 : index
        %v = arith.index_cast %s : index to i32
        memref.store %v, %a[%k, %i, %j] : memref<?x?x?xi32>
        memref.store %one, %c[%k, %i, %j] : memref<?x?x?xi32>
      }
    }
  }
  return
}

// sum of c[k][i][j] * ((k + i * 3 + j) mod 7 + 1)
func.func @checksum3(%c: memref<?x?x?xi32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i64
  %l = memref.dim %c, %c0 : memref<?x?x?xi32>
  %m = memref.dim %c, %c1 : memref<?x?x?xi32>
  %n = memref.dim %c, %c2 : memref<?x?x?xi32>
  %s = scf.for %k = %c0 to %l step %c1 iter_args(%acc0 = %zero) -> i64 {
    %t = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %acc0) -> i64 {
      %u = scf.for %j = %c0 to %n step %c1 iter_args(%v = %acc) -> i64 {
        %e = memref.load %c[%k, %i, %j] : memref<?x?x?xi32>
        %w = arith.extsi %e : i32 to i64
        %x = arith.muli %i, %c3 : index
        %y0 = arith.addi %x, %j : index
        %y = arith.addi %y0, %k : index
        %r = arith.remui %y, %c7 : index
        %q = arith.addi %r, %c1 : index
        %qi = arith.index_cast %q : index to i64
        %p = arith.muli %w, %qi : i64
        %o = arith.addi %v, %p : i64
        scf.yield %o : i64
      }
      scf.yield %u : i64
    }
    scf.yield %t : i64
  }
  return %s : i64
}

func.func @run3(%l: index, %m: index, %n: index) {
  %a = memref.alloc(%l, %m, %n) : memref<?x?x?xi32>
  %c = memref.alloc(%l, %m, %n) : memref<?x?x?xi32>
  call @fill3(%a, %c) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  call @corners(%a, %c) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  %s = call @checksum3(%c) : (memref<?x?x?xi32>) -> i64
  vector.print str "sums3 "
  vector.print %s : i64
  memref.dealloc %a : memref<?x?x?xi32>
  memref.dealloc %c : memref<?x?x?xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c37 = arith.constant 37 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %c776 = arith.constant 776 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  call @run2(%c0, %c5) : (index, index) -> ()
  call @run2(%c1, %c1) : (index, index) -> ()
  call @run2(%c31, %c33) : (index, index) -> ()
  call @run2(%c33, %c31) : (index, index) -> ()
  call @run2(%c5, %c40) : (index, index) -> ()
  call @run2(%c1000, %c776) : (index, index) -> ()
  call @run2(%c1000, %c777) : (index, index) -> ()
  %c70000 = arith.constant 70000 : index
  call @run2(%c70000, %c6) : (index, index) -> ()
  call @run3(%c0, %c3, %c5) : (index, index, index) -> ()
  call @run3(%c1, %c1, %c1) : (index, index, index) -> ()
  call @run3(%c2, %c5, %c40) : (index, index, index) -> ()
  call @run3(%c3, %c31, %c33) : (index, index, index) -> ()
  call @run3(%c4, %c37, %c96) : (index, index, index) -> ()
  call @run3(%c6, %c64, %c1000) : (index, index, index) -> ()
  return
}
