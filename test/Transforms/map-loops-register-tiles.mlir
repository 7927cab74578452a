// Matmul-shaped 2-D nests (each output runs a loop over k that reads one
// array along the row and one along the column) give each thread a 4x2
// tile of outputs: ops that depend on the row alone run once a row of the
// tile, on the column alone once a column. Checked in CPU emulation
// against the original at empty, one-element, ragged (31x33, 33x31,
// 1000x777) sizes: an f32 product reduced by scf.parallel; an f64 loop that
// is no reduction (acc * x + a * b, in k order) over every other k from 1,
// on a strided view; an i32 product whose result is combined with the
// output's old value; under the default options (at 4 resident blocks the
// larger sizes tiled, the small ones a thread an output on the other side
// of the run-time choice), with no size tiled, with every size tiled in
// 64-thread blocks, and with the tiles turned off; the k loop stays in
// registers (shared-tiles=false), as map-loops-shared-tiles.mlir checks the
// tiles staged in workgroup memory. A mutation (one output of the tile given its
// neighbour's row load) must change the result.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu="remarks shared-tiles=false" 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=64 shared-tiles=false" -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.small
// RUN: diff %t.ref %t.small
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch="resident-blocks=100000" %lower_to_cpu | %run_cpu > %t.untiled
// RUN: diff %t.ref %t.untiled
// RUN: threadbind-opt %s -threadbind-map-to-gpu="register-tiles=false" > %t.off.mlir
// RUN: FileCheck %s --check-prefix=OFF < %t.off.mlir
// RUN: threadbind-opt %t.off.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.off
// RUN: diff %t.ref %t.off
// RUN: %python %S/Inputs/mutate-register-tile.py < %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// REMARKS-COUNT-3: remark: bound to gpu.launch with register tiles: each output runs a loop over k that reads memory along loop dimension 0 and along dimension 1, so each thread computes 4x2 outputs (rows 8 apart, columns 32 apart)

// The f32 product: 4 row loads and 2 column loads a k for 8 outputs.
// CHECK-LABEL: func.func @matmul(
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1)
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4:       memref.load %arg0
// CHECK-COUNT-2:       memref.load %arg1
// CHECK-NOT:           memref.load
// CHECK:               scf.yield
// CHECK-COUNT-8:     scf.if
// CHECK-LABEL: func.func @horner(
// CHECK:             scf.for {{.*}} -> (f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK-LABEL: func.func @accumulate(
// CHECK:             scf.for {{.*}} -> (i32, i32, i32, i32, i32, i32, i32, i32)
// OFF-NOT:       -> (f32, f32, f32, f32, f32, f32, f32, f32)

// OUT-COUNT-5: matmul
// OUT-COUNT-3: horner
// OUT-COUNT-3: accumulate

// c[i][j] = sum_k a[i][k] * b[k][j]
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %s = scf.parallel (%l) = (%c0) to (%k) step (%c1) init (%zero) -> f32 {
      %x = memref.load %a[%i, %l] : memref<?x?xf32>
      %y = memref.load %b[%l, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %y : f32
      scf.reduce(%p : f32) {
      ^bb0(%u: f32, %v: f32):
        %w = arith.addf %u, %v : f32
        scf.reduce.return %w : f32
      }
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}

// c[i][j] = (((0 * x + a[i][1] b[1][j]) * x + a[i][3] b[3][j]) * x + ...),
// b a view of every other column.
func.func @horner(%a: memref<?x?xf64>, %b: memref<?x?xf64, strided<[?, 2], offset: ?>>,
                  %c: memref<?x?xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %k = memref.dim %a, %c1 : memref<?x?xf64>
  %n = memref.dim %b, %c1 : memref<?x?xf64, strided<[?, 2], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %s = scf.for %l = %c1 to %k step %c2 iter_args(%acc = %zero) -> f64 {
      %u = memref.load %a[%i, %l] : memref<?x?xf64>
      %v = memref.load %b[%l, %j] : memref<?x?xf64, strided<[?, 2], offset: ?>>
      %p = arith.mulf %u, %v : f64
      %h = arith.mulf %acc, %x : f64
      %t = arith.addf %h, %p : f64
      scf.yield %t : f64
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf64>
  }
  return
}

// c[i][j] = 3 * c[i][j] + sum_k a[k][i] * b[k][j] (a read transposed)
func.func @accumulate(%a: memref<?x?xi32>, %b: memref<?x?xi32>, %c: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3 : i32
  %k = memref.dim %a, %c0 : memref<?x?xi32>
  %m = memref.dim %a, %c1 : memref<?x?xi32>
  %n = memref.dim %b, %c1 : memref<?x?xi32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %old = memref.load %c[%i, %j] : memref<?x?xi32>
    %init = arith.muli %old, %three : i32
    %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %init) -> i32 {
      %u = memref.load %a[%l, %i] : memref<?x?xi32>
      %v = memref.load %b[%l, %j] : memref<?x?xi32>
      %p = arith.muli %u, %v : i32
      %t = arith.addi %acc, %p : i32
      scf.yield %t : i32
    }
    memref.store %s, %c[%i, %j] : memref<?x?xi32>
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

// sum of a[i][j] * (1 + i + 1000 j), in f64.
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

func.func @run_matmul(%m: index, %k: index, %n: index) {
  %a64 = memref.alloc(%m, %k) : memref<?x?xf64>
  %b64 = memref.alloc(%k, %n) : memref<?x?xf64>
  %c64 = memref.alloc(%m, %n) : memref<?x?xf64>
  %a = memref.alloc(%m, %k) : memref<?x?xf32>
  %b = memref.alloc(%k, %n) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%b64) : (memref<?x?xf64>) -> ()
  call @to_f32(%a64, %a) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @to_f32(%b64, %b) : (memref<?x?xf64>, memref<?x?xf32>) -> ()
  call @matmul(%a, %b, %c) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @from_f32(%c, %c64) : (memref<?x?xf32>, memref<?x?xf64>) -> ()
  %s = call @checksum(%c64) : (memref<?x?xf64>) -> f64
  vector.print str "matmul "
  vector.print %s : f64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %b64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

// b is a k x (2n) array, of which the view takes every other column.
func.func @run_horner(%m: index, %k: index, %n: index) {
  %c2 = arith.constant 2 : index
  %n2 = arith.muli %n, %c2 : index
  %a = memref.alloc(%m, %k) : memref<?x?xf64>
  %full = memref.alloc(%k, %n2) : memref<?x?xf64>
  %c = memref.alloc(%m, %n) : memref<?x?xf64>
  call @fill(%a) : (memref<?x?xf64>) -> ()
  call @fill(%full) : (memref<?x?xf64>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %view = memref.subview %full[0, 1] [%k, %n] [1, 2] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 2], offset: 1>>
  %b = memref.cast %view : memref<?x?xf64, strided<[?, 2], offset: 1>> to memref<?x?xf64, strided<[?, 2], offset: ?>>
  %x = arith.constant 0.5 : f64
  call @horner(%a, %b, %c, %x) : (memref<?x?xf64>, memref<?x?xf64, strided<[?, 2], offset: ?>>, memref<?x?xf64>, f64) -> ()
  %s = call @checksum(%c) : (memref<?x?xf64>) -> f64
  vector.print str "horner "
  vector.print %s : f64
  memref.dealloc %a : memref<?x?xf64>
  memref.dealloc %full : memref<?x?xf64>
  memref.dealloc %c : memref<?x?xf64>
  return
}

func.func @run_accumulate(%m: index, %k: index, %n: index) {
  %a64 = memref.alloc(%k, %m) : memref<?x?xf64>
  %b64 = memref.alloc(%k, %n) : memref<?x?xf64>
  %c64 = memref.alloc(%m, %n) : memref<?x?xf64>
  %a = memref.alloc(%k, %m) : memref<?x?xi32>
  %b = memref.alloc(%k, %n) : memref<?x?xi32>
  %c = memref.alloc(%m, %n) : memref<?x?xi32>
  call @fill(%a64) : (memref<?x?xf64>) -> ()
  call @fill(%b64) : (memref<?x?xf64>) -> ()
  call @fill(%c64) : (memref<?x?xf64>) -> ()
  call @to_i32(%a64, %a) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @to_i32(%b64, %b) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @to_i32(%c64, %c) : (memref<?x?xf64>, memref<?x?xi32>) -> ()
  call @accumulate(%a, %b, %c) : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
  call @from_i32(%c, %c64) : (memref<?x?xi32>, memref<?x?xf64>) -> ()
  %s = call @checksum(%c64) : (memref<?x?xf64>) -> f64
  vector.print str "accumulate "
  vector.print %s : f64
  memref.dealloc %a64 : memref<?x?xf64>
  memref.dealloc %b64 : memref<?x?xf64>
  memref.dealloc %c64 : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xi32>
  memref.dealloc %b : memref<?x?xi32>
  memref.dealloc %c : memref<?x?xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  call @run_matmul(%c0, %c5, %c7) : (index, index, index) -> ()
  call @run_matmul(%c1, %c1, %c1) : (index, index, index) -> ()
  call @run_matmul(%c31, %c7, %c33) : (index, index, index) -> ()
  call @run_matmul(%c33, %c5, %c31) : (index, index, index) -> ()
  call @run_matmul(%c1000, %c5, %c777) : (index, index, index) -> ()
  call @run_horner(%c1, %c1, %c1) : (index, index, index) -> ()
  call @run_horner(%c33, %c7, %c31) : (index, index, index) -> ()
  call @run_horner(%c31, %c5, %c777) : (index, index, index) -> ()
  call @run_accumulate(%c7, %c0, %c5) : (index, index, index) -> ()
  call @run_accumulate(%c31, %c5, %c33) : (index, index, index) -> ()
  call @run_accumulate(%c777, %c7, %c33) : (index, index, index) -> ()
  return
}
