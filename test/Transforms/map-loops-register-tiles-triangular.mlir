// Triangular matmul-shaped nests (an scf.parallel over rows holding one
// over columns whose bounds are linear in the row: syrk's j <= i,
// covariance's j >= i) get register tiles over the rectangle around the
// triangle, threads with no output inside it skipping the loop over k;
// with fewer tiles than the device holds blocks, one output a thread over
// the same blocks. Checked in CPU emulation against the original at empty,
// one-row, ragged (31, 33) and larger (100, 130) sizes: an f32 lower
// triangle including the diagonal (scf.for over k); an f64 upper triangle
// stored twice, as covariance does (scf.parallel over k); an i32 strict
// lower triangle on every other row from 1 and every third column. Under
// the default options (both sides of the run-time choice, by size), with
// every size tiled, with none, with 64-thread blocks, and with the k loops
// kept in registers (shared-tiles=false). Where the tiles are shared (the
// default), a block whose tile does not meet the triangle runs no step of
// k, since all its threads must reach the barriers. A nest whose load
// index mixes the row and the column is not tiled. A triangle whose outer
// body also stores (correlation's diagonal) is split: the store runs in a
// loop of its own first, the triangle tiled. Two mutations (in the
// 4x2 tiles, the triangle's upper bound taken inclusive; in the shared
// ones, the test whether a tile meets the triangle reversed) must change
// the result.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.tiled
// RUN: diff %t.ref %t.tiled
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=100000" %lower_to_cpu | %run_cpu > %t.untiled
// RUN: diff %t.ref %t.untiled
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=64" -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// With a block shape the loop mapping tiles nothing, so the reductions
// keep correlation's shape as a block an outer iteration, unsplit.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="remarks block-shape=32,8" 2>&1 >/dev/null | FileCheck %s --check-prefix=SHAPED
// SHAPED-NOT: register tiles
// SHAPED: remark: one block per outer iteration
// SHAPED-NOT: register tiles
// RUN: threadbind-opt %s -threadbind-map-to-gpu="shared-tiles=false" > %t.registers.mlir
// RUN: threadbind-opt %t.registers.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.registers
// RUN: diff %t.ref %t.registers
// RUN: %python %S/Inputs/mutate-triangle-bound.py sle < %t.registers.mlir > %t.mutant.mlir
// RUN: not diff -q %t.registers.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant
// RUN: %python %S/Inputs/mutate-triangle-bound.py sgt < %t.default.mlir > %t.mutant-shared.mlir
// RUN: threadbind-opt %t.mutant-shared.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.mutant-shared
// RUN: not diff -q %t.ref %t.mutant-shared

// REMARKS-COUNT-3: remark: bound to gpu.launch with register tiles: each output runs a loop over k that reads memory along the outer loop and along the inner one, whose bounds vary with the outer
// REMARKS: remark: bound to gpu.launch: one iteration per block, nested loop dimension 0 on threadIdx.x
// REMARKS: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x
// REMARKS: remark: bound to gpu.launch with register tiles: each output runs a loop over k that reads memory along the outer loop and along the inner one

// The tiled launch: 4 row loads and 2 column loads a k for 8 outputs,
// under a test that any output is inside; then one output a thread.
// CHECK-LABEL: func.func @lower(
// CHECK:         scf.if
// CHECK:           gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1)
// CHECK:             scf.for
// CHECK:               scf.if
// CHECK:                 scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4:           memref.load %arg0
// CHECK-COUNT-2:           memref.load %arg0
// CHECK-NOT:               memref.load
// CHECK:                   scf.yield
// CHECK-COUNT-8:         scf.if
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK:             scf.for {{.*}} iter_args({{.*}}) -> (f32) {
// CHECK-LABEL: func.func @covariance(
// CHECK:             scf.for {{.*}} -> (f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK-LABEL: func.func @strict(
// CHECK:             scf.for {{.*}} -> (i32, i32, i32, i32, i32, i32, i32, i32)
// CHECK-LABEL: func.func @mixed(
// CHECK-NOT:         -> (f32, f32, f32, f32, f32, f32, f32, f32)
// The diagonal's loop first, then the triangle's tiles.
// CHECK-LABEL: func.func @with_diagonal(
// CHECK:         gpu.launch
// CHECK:           memref.store %cst{{.*}}, %arg1[%[[I:.*]], %[[I]]]
// CHECK:         gpu.launch {{.*}} workgroup(

// OUT-COUNT-5: lower
// OUT-COUNT-5: covariance
// OUT-COUNT-4: strict
// OUT-COUNT-2: mixed
// OUT: lower
// OUT: covariance
// OUT-COUNT-4: with_diagonal

// j <= i: c[i][j] = 0.5 c[i][j] + sum_k a[i][k] a[j][k]
func.func @lower(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ie = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%ie) step (%c1) {
      %old = memref.load %c[%i, %j] : memref<?x?xf32>
      %init = arith.mulf %old, %half : f32
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %init) -> f32 {
        %x = memref.load %a[%i, %l] : memref<?x?xf32>
        %y = memref.load %a[%j, %l] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      memref.store %s, %c[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// j >= i: cov[i][j] = cov[j][i] = sum_k d[k][i] d[k][j]
func.func @covariance(%d: memref<?x?xf64>, %cov: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %k = memref.dim %d, %c0 : memref<?x?xf64>
  %m = memref.dim %d, %c1 : memref<?x?xf64>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    scf.parallel (%j) = (%i) to (%m) step (%c1) {
      %s = scf.parallel (%l) = (%c0) to (%k) step (%c1) init (%zero) -> f64 {
        %x = memref.load %d[%l, %i] : memref<?x?xf64>
        %y = memref.load %d[%l, %j] : memref<?x?xf64>
        %p = arith.mulf %x, %y : f64
        scf.reduce(%p : f64) {
        ^bb0(%u: f64, %v: f64):
          %w = arith.addf %u, %v : f64
          scf.reduce.return %w : f64
        }
      }
      memref.store %s, %cov[%i, %j] : memref<?x?xf64>
      memref.store %s, %cov[%j, %i] : memref<?x?xf64>
    }
  }
  return
}

// Rows 1, 3, 5, ...; columns 0, 3, 6, ... below the row:
// c[i][j] = c[i][j] + sum_k a[i][k] b[k][j] (i32)
func.func @strict(%a: memref<?x?xi32>, %b: memref<?x?xi32>, %c: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %c, %c0 : memref<?x?xi32>
  %k = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%i) = (%c1) to (%n) step (%c2) {
    scf.parallel (%j) = (%c0) to (%i) step (%c3) {
      %old = memref.load %c[%i, %j] : memref<?x?xi32>
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %old) -> i32 {
        %x = memref.load %a[%i, %l] : memref<?x?xi32>
        %y = memref.load %b[%l, %j] : memref<?x?xi32>
        %p = arith.muli %x, %y : i32
        %t = arith.addi %acc, %p : i32
        scf.yield %t : i32
      }
      memref.store %s, %c[%i, %j] : memref<?x?xi32>
    }
  }
  return
}

// Not tiled: a[i + j][k] depends on the row and the column at once, so a
// column outside one row's triangle could read past what the nest reads.
func.func @mixed(%a: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %c, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ie = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%c0) to (%ie) step (%c1) {
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
        %ij = arith.addi %i, %j : index
        %x = memref.load %a[%i, %l] : memref<?x?xf32>
        %y = memref.load %a[%ij, %l] : memref<?x?xf32>
        %z = memref.load %a[%j, %l] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.mulf %p, %z : f32
        %t = arith.addf %acc, %q : f32
        scf.yield %t : f32
      }
      memref.store %s, %c[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// Correlation's shape: corr[i][i] = 1 in the outer body beside the
// triangle j > i, corr[i][j] = corr[j][i] = sum_k d[k][i] d[k][j]. The store
// of the diagonal moves to a loop of its own, and the triangle is tiled.
func.func @with_diagonal(%d: memref<?x?xf32>, %corr: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %k = memref.dim %d, %c0 : memref<?x?xf32>
  %m = memref.dim %d, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    memref.store %one, %corr[%i, %i] : memref<?x?xf32>
    %i1 = arith.addi %i, %c1 : index
    scf.parallel (%j) = (%i1) to (%m) step (%c1) {
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> f32 {
        %x = memref.load %d[%l, %i] : memref<?x?xf32>
        %y = memref.load %d[%l, %j] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      memref.store %s, %corr[%i, %j] : memref<?x?xf32>
      memref.store %s, %corr[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

// a[i][j] = (i * 131 + j * 7) mod 1009 - 500, as f64.
func.func @fill(%a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c131 = arith.constant 131 : index
  %c1009 = arith.constant 1009 : index
  %c500 = arith.constant 500 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = arith.muli %i, %c131 : index
      %y = arith.muli %j, %c7 : index
      %z = arith.addi %x, %y : index
      %r = arith.remui %z, %c1009 : index
      %s = arith.subi %r, %c500 : index
      %ri = arith.index_cast %s : index to i64
      %rf = arith.sitofp %ri : i64 to f64
      memref.store %rf, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// sum of a[i][j] * (1 + i + 1000 j), in f64: every element, inside the
// triangle or not, counts. Runs print it rounded and as its bits: each
// output adds over k in the same order on both sides, so they agree to
// the bit.
func.func @checksum(%a: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  %zero = arith.constant 0.0 : f64
  %thousand = arith.constant 1000.0 : f64
  %onef = arith.constant 1.0 : f64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> f64 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %ii = arith.index_cast %i : index to i64
      %ji = arith.index_cast %j : index to i64
      %if = arith.sitofp %ii : i64 to f64
      %jf = arith.sitofp %ji : i64 to f64
      %wj = arith.mulf %jf, %thousand : f64
      %w0 = arith.addf %if, %wj : f64
      %w = arith.addf %w0, %onef : f64
      %p = arith.mulf %v, %w : f64
      %r = arith.addf %acc2, %p : f64
      scf.yield %r : f64
    }
    scf.yield %t : f64
  }
  return %s : f64
}

func.func @to_f32(%a: memref<?x?xf64>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %f = arith.truncf %v : f64 to f32
      memref.store %f, %b[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @from_f32(%b: memref<?x?xf32>, %a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %b[%i, %j] : memref<?x?xf32>
      %f = arith.extf %v : f32 to f64
      memref.store %f, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

func.func @to_i32(%a: memref<?x?xf64>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %f = arith.fptosi %v : f64 to i32
      memref.store %f, %b[%i, %j] : memref<?x?xi32>
    }
  }
  return
}

func.func @from_i32(%b: memref<?x?xi32>, %a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %b[%i, %j] : memref<?x?xi32>
      %f = arith.sitofp %v : i32 to f64
      memref.store %f, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// a is n x k, c n x n.
func.func @run_lower(%n: index, %k: index) {
  %a64 = memref.alloc(%n, %k) : memref<?x?xf64>
  %c64 = memref.alloc(%n, %n) : memref<?x?xf64>
  %a = memref.alloc(%n, %k) : memref<?x?xf32>
  %c = memref.alloc(%n, %n) : memref<?x?xf32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_f32(%a64, %a) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @to_f32(%c64, %c) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @lower(%a, %c) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @from_f32(%c, %c64) : (memref<?x?xf32>, memref<?x?xf64>) -> ()
  %s = call @checksum(%c64) : (memref<?x?xf64>) -> f64
  vector.print str "lower "
  vector.print %s : f64
  %bits = arith.bitcast %s : f64 to i64
  vector.print str "bits "
  vector.print %bits : i64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

// d is k x m, cov m x m (filled first, so untouched elements show).
func.func @run_covariance(%k: index, %m: index) {
  %d = memref.alloc(%k, %m) : memref<?x?xf64>
  %cov = memref.alloc(%m, %m) : memref<?x?xf64>
  call @fill(%d) : (memref<?x?xf64>) -> ()
  call @fill(%cov) : (memref<?x?xf64>) -> ()
  call @covariance(%d, %cov) : (memref<?x?xf64>, memref<?x?xf64>) -> ()
  %s = call @checksum(%cov) : (memref<?x?xf64>) -> f64
  vector.print str "covariance "
  vector.print %s : f64
  %bits = arith.bitcast %s : f64 to i64
  vector.print str "bits "
  vector.print %bits : i64
  memref.dealloc %d : memref<?x?xf64>
  memref.dealloc %cov : memref<?x?xf64>
  return
}

// a is n x k, b k x n, c n x n.
func.func @run_strict(%n: index, %k: index) {
  %a64 = memref.alloc(%n, %k) : memref<?x?xf64>
  %b64 = memref.alloc(%k, %n) : memref<?x?xf64>
  %c64 = memref.alloc(%n, %n) : memref<?x?xf64>
  %a = memref.alloc(%n, %k) : memref<?x?xi32>
  %b = memref.alloc(%k, %n) : memref<?x?xi32>
  %c = memref.alloc(%n, %n) : memref<?x?xi32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%b64) : (memref<?x?xf64>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_i32(%a64, %a) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @to_i32(%b64, %b) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @to_i32(%c64, %c) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @strict(%a, %b, %c) : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
  call @from_i32(%c, %c64) : (memref<?x?xi32>, memref<?x?xf64>) -> ()
  %s = call @checksum(%c64) : (memref<?x?xf64>) -> f64
  vector.print str "strict "
  vector.print %s : f64
  %bits = arith.bitcast %s : f64 to i64
  vector.print str "bits "
  vector.print %bits : i64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %b64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xi32>
  memref.dealloc %b : memref<?x?xi32>
  memref.dealloc %c : memref<?x?xi32>
  return
}

func.func @run_with_diagonal(%k: index, %m: index) {
  %d64 = memref.alloc(%k, %m) : memref<?x?xf64>
  %c64 = memref.alloc(%m, %m) : memref<?x?xf64>
  %d = memref.alloc(%k, %m) : memref<?x?xf32>
  %corr = memref.alloc(%m, %m) : memref<?x?xf32>
  call @fill(%d64) : (memref<?x?xf64>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_f32(%d64, %d) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @to_f32(%c64, %corr) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @with_diagonal(%d, %corr) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @from_f32(%corr, %c64) : (memref<?x?xf32>, memref<?x?xf64>) -> ()
  %s = call @checksum(%c64) : (memref<?x?xf64>) -> f64
  vector.print str "with_diagonal "
  vector.print %s : f64
  %bits = arith.bitcast %s : f64 to i64
  vector.print str "bits "
  vector.print %bits : i64
  memref.dealloc %d64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %d : memref<?x?xf32>
  memref.dealloc %corr : memref<?x?xf32>
  return
}

// a is 2n x k (i + j < 2n), c n x n.
func.func @run_mixed(%n: index, %k: index) {
  %c2 = arith.constant 2 : index
  %n2 = arith.muli %n, %c2 : index
  %a64 = memref.alloc(%n2, %k) : memref<?x?xf64>
  %c64 = memref.alloc(%n, %n) : memref<?x?xf64>
  %a = memref.alloc(%n2, %k) : memref<?x?xf32>
  %c = memref.alloc(%n, %n) : memref<?x?xf32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_f32(%a64, %a) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @to_f32(%c64, %c) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @mixed(%a, %c) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @from_f32(%c, %c64) : (memref<?x?xf32>, memref<?x?xf64>) -> ()
  %s = call @checksum(%c64) : (memref<?x?xf64>) -> f64
  vector.print str "mixed "
  vector.print %s : f64
  %bits = arith.bitcast %s : f64 to i64
  vector.print str "bits "
  vector.print %bits : i64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c100 = arith.constant 100 : index
  %c130 = arith.constant 130 : index
  %c17 = arith.constant 17 : index
  %c19 = arith.constant 19 : index
  call @run_lower(%c0, %c5) : (index, index) -> ()
  call @run_lower(%c1, %c1) : (index, index) -> ()
  call @run_lower(%c31, %c7) : (index, index) -> ()
  call @run_lower(%c33, %c5) : (index, index) -> ()
  call @run_lower(%c130, %c5) : (index, index) -> ()
  call @run_covariance(%c5, %c0) : (index, index) -> ()
  call @run_covariance(%c1, %c1) : (index, index) -> ()
  call @run_covariance(%c7, %c31) : (index, index) -> ()
  call @run_covariance(%c2, %c33) : (index, index) -> ()
  call @run_covariance(%c5, %c100) : (index, index) -> ()
  call @run_strict(%c1, %c5) : (index, index) -> ()
  call @run_strict(%c2, %c7) : (index, index) -> ()
  call @run_strict(%c33, %c5) : (index, index) -> ()
  call @run_strict(%c130, %c7) : (index, index) -> ()
  call @run_mixed(%c1, %c5) : (index, index) -> ()
  call @run_mixed(%c33, %c7) : (index, index) -> ()
  // Past 8 steps of k, whole stages of the shared tiles run.
  call @run_lower(%c130, %c19) : (index, index) -> ()
  call @run_covariance(%c19, %c100) : (index, index) -> ()
  call @run_with_diagonal(%c5, %c0) : (index, index) -> ()
  call @run_with_diagonal(%c1, %c1) : (index, index) -> ()
  call @run_with_diagonal(%c19, %c33) : (index, index) -> ()
  call @run_with_diagonal(%c17, %c130) : (index, index) -> ()
  return
}
