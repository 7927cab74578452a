// threadbind-narrow-indices: a launch with nested loops or multi-dimensional
// accesses runs a copy that counts its loops and addresses its memrefs in
// i32 where the host finds every assumed size and every accessed memref
// below 2^31 elements, and itself otherwise; an elementwise 1-D launch is
// left alone. Checked in CPU emulation against the original at empty,
// one-element, ragged (31, 33) and larger (1000x777) sizes: a matrix
// product (its sum over k an scf.for, then a sequential scf.parallel
// reduction, both counted in i32), a 2-D stencil reading i-1 and j+1, a
// triangle whose inner bound is the row, a 3-D nest, and views with an
// offset and non-unit strides; under the grid-stride mapping (one launch a
// nest: stencil-cover=false), cover grids of 64 threads and a 3-D block
// shape. Views with a negative stride or a
// stride of 2^31 must run the launch as it was. A mutant that drops one
// access's stride must change the results.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=stencil-cover=false > %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-narrow-indices=remarks 2>%t.remarks >%t.mlir
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: %python %S/Inputs/print-narrow-branch.py < %t.mlir > %t.printed.mlir
// RUN: threadbind-opt %t.printed.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: FileCheck %s --check-prefix=BRANCH < %t.out
// RUN: grep -v -e narrow -e wide %t.out | diff %t.ref -
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4,2 max-blocks=3" -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: %python %S/Inputs/print-narrow-branch.py --mutate < %t.mlir > %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: grep -v -e narrow -e wide %t.mutant | not diff -q %t.ref -

// Besides the functions under test, the host helpers' one-thread launches.
// REMARKS-DAG: remark: 32-bit index copy: 2 loop(s) counted and 14 access(es) addressed in i32
// REMARKS-DAG: remark: 32-bit index copy: 3 loop(s) counted and 3 access(es) addressed in i32
// REMARKS-DAG: remark: 32-bit index copy: 2 loop(s) counted and 5 access(es) addressed in i32
// REMARKS-DAG: remark: 32-bit index copy: 2 loop(s) counted and 3 access(es) addressed in i32
// REMARKS-DAG: remark: 32-bit index copy: 4 loop(s) counted and 16 access(es) addressed in i32
// REMARKS-DAG: remark: 32-bit indices in place: 2 loop(s) counted and 2 access(es) addressed in i32; the types and the grid fix every size
// REMARKS-DAG: remark: indices kept 64-bit: only one-dimensional accesses in grid-stride loops

// The copy of the thread-an-output launch (after the register-tiled
// one's): its loops over i32, its sum over k an scf.for now, each access
// through a view of the base buffer at an i32 offset; the host tests the
// sizes and strides first. The launch as it was keeps its scf.parallel.
// CHECK-LABEL: func.func @matmul(
// CHECK:         memref.extract_strided_metadata %arg0
// CHECK:         arith.maxsi
// CHECK:         arith.cmpi sle, %{{.*}}, %c2147483647
// CHECK:         scf.if
// CHECK-NEXT:      gpu.launch
// CHECK:             memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2147483647], strides: [1]
// CHECK:             scf.for %{{.*}} : i32 {
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}}) -> (f64)  : i32 {
// CHECK-NEXT:      arith.index_cast %{{.*}} : i32 to index
// CHECK:           arith.muli %{{.*}} overflow<nsw> : i32
// CHECK:           memref.load %{{.*}} : memref<2147483647xf64>
// CHECK:         } else {
// CHECK-NEXT:      gpu.launch
// CHECK:             scf.parallel
// CHECK:               memref.load %{{.*}} : memref<?x?xf64>
// A bound from i32 arithmetic that may wrap is unknown, even where a
// remainder would bound it if it did not: that loop keeps counting in
// index in the copy.
// CHECK-LABEL: func.func @wrapped(
// CHECK:         scf.if
// CHECK-NEXT:      gpu.launch
// CHECK:             scf.for %{{.*}} : i32 {
// CHECK:               scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:           : i32 {
// CHECK:                 memref.load %{{.*}} : memref<2147483647xf64>
// CHECK:         } else {
// CHECK-LABEL: func.func @static_shift(
// CHECK-NOT:     scf.if
// CHECK:         gpu.launch
// CHECK:           scf.for %{{.*}} : i32 {
// CHECK:             memref.load %{{.*}} : memref<2147483647xf64>
// CHECK-NOT:     gpu.launch
// CHECK-LABEL: func.func @axpy(
// CHECK-NOT:     scf.if
// CHECK:         gpu.launch
// CHECK-NOT:     scf.if
// CHECK-LABEL: func.func @fill(

// OUT: matmul 0
// OUT: matmul 250000
// OUT: view 7.14191e+06

// Which side ran, in the order main calls them: the copy wherever the
// sizes fit, the launch as it was for the reversed view (negative
// strides) and the view with a stride of 2^31.
// BRANCH-COUNT-5: narrow
// BRANCH-NEXT:    matmul
// BRANCH:         narrow
// BRANCH-NEXT:    stencil
// BRANCH:         narrow
// BRANCH-NEXT:    stencil
// BRANCH:         narrow
// BRANCH-NEXT:    row_sums
// BRANCH:         narrow
// BRANCH-NEXT:    cube
// BRANCH:         narrow
// BRANCH-NEXT:    view
// BRANCH:         wide
// BRANCH-NEXT:    view
// BRANCH:         wide
// BRANCH-NEXT:    view
// BRANCH-NOT:     narrow
// BRANCH-NOT:     wide
// BRANCH:         static_shift
// BRANCH-NOT:     narrow
// BRANCH-NOT:     wide
// BRANCH:         axpy

// c = a b, a n x k, b k x m.
func.func @matmul(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  %k = memref.dim %a, %c1 : memref<?x?xf64>
  %m = memref.dim %b, %c1 : memref<?x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> f64 {
      %x = memref.load %a[%i, %l] : memref<?x?xf64>
      %y = memref.load %b[%l, %j] : memref<?x?xf64>
      %p = arith.mulf %x, %y : f64
      %t = arith.addf %acc, %p : f64
      scf.yield %t : f64
    }
    memref.store %s, %c[%i, %j] : memref<?x?xf64>
  }
  return
}

// b[i][j] = a[i-1][j] + a[i+1][j] + a[i][j-1] + 2 a[i][j+1] inside.
func.func @stencil(%a: memref<?x?xf64>, %b: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  %m = memref.dim %a, %c1 : memref<?x?xf64>
  %n1 = arith.subi %n, %c1 : index
  %m1 = arith.subi %m, %c1 : index
  scf.parallel (%i, %j) = (%c1, %c1) to (%n1, %m1) step (%c1, %c1) {
    %ip = arith.subi %i, %c1 : index
    %in = arith.addi %i, %c1 : index
    %jp = arith.subi %j, %c1 : index
    %jn = arith.addi %j, %c1 : index
    %u = memref.load %a[%ip, %j] : memref<?x?xf64>
    %d = memref.load %a[%in, %j] : memref<?x?xf64>
    %l = memref.load %a[%i, %jp] : memref<?x?xf64>
    %r = memref.load %a[%i, %jn] : memref<?x?xf64>
    %r2 = arith.mulf %r, %two : f64
    %s0 = arith.addf %u, %d : f64
    %s1 = arith.addf %s0, %l : f64
    %s2 = arith.addf %s1, %r2 : f64
    memref.store %s2, %b[%i, %j] : memref<?x?xf64>
  }
  return
}

// out[i] = sum over k <= i of a[i][k] (a is n x n), the sum a reduction
// the normalisation makes an scf.parallel.
func.func @row_sums(%a: memref<?x?xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %end = arith.addi %i, %c1 : index
    %s = scf.parallel (%k) = (%c0) to (%end) step (%c1) init (%zero) -> f64 {
      %x = memref.load %a[%i, %k] : memref<?x?xf64>
      scf.reduce(%x : f64) {
      ^bb0(%p: f64, %q: f64):
        %t = arith.addf %p, %q : f64
        scf.reduce.return %t : f64
      }
    }
    memref.store %s, %out[%i] : memref<?xf64>
  }
  return
}

// b[i][j][l] = a[i][j][l] - 3 a[i][j][l-1] for l >= 1.
func.func @cube(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %three = arith.constant 3.0 : f64
  %n = memref.dim %a, %c0 : memref<?x?x?xf64>
  %m = memref.dim %a, %c1 : memref<?x?x?xf64>
  %p = memref.dim %a, %c2 : memref<?x?x?xf64>
  scf.parallel (%i, %j, %l) = (%c0, %c0, %c1) to (%n, %m, %p) step (%c1, %c1, %c1) {
    %lp = arith.subi %l, %c1 : index
    %x = memref.load %a[%i, %j, %l] : memref<?x?x?xf64>
    %y = memref.load %a[%i, %j, %lp] : memref<?x?x?xf64>
    %y3 = arith.mulf %y, %three : f64
    %z = arith.subf %x, %y3 : f64
    memref.store %z, %b[%i, %j, %l] : memref<?x?x?xf64>
  }
  return
}

// out = 3 in + out, on views with offsets and strides of any sign.
func.func @view(%in: memref<?x?xf64, strided<[?, ?], offset: ?>>,
                %out: memref<?x?xf64, strided<[?, ?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f64
  %n = memref.dim %out, %c0 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  %m = memref.dim %out, %c1 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
    %y = memref.load %out[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
    %x3 = arith.mulf %x, %three : f64
    %z = arith.addf %x3, %y : f64
    memref.store %z, %out[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
  }
  return
}

// out[i][j] = a[i][j] + k for k below (n * 65536 rem 1000), the product
// wrapping in i32 (so the bound may be negative); never run, only
// compiled.
func.func @wrapped(%a: memref<?x?xf64>, %out: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero32 = arith.constant 0 : i32
  %scale = arith.constant 65536 : i32
  %thousand = arith.constant 1000 : i32
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  %m = memref.dim %a, %c1 : memref<?x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %n32 = arith.index_cast %n : index to i32
    %p = arith.maxsi %n32, %zero32 : i32
    %w = arith.muli %p, %scale : i32
    %r = arith.remsi %w, %thousand : i32
    %ub = arith.index_cast %r : i32 to index
    scf.for %k = %c0 to %ub step %c1 {
      %y = memref.load %a[%i, %j] : memref<?x?xf64>
      %k64 = arith.index_cast %k : index to i64
      %kf = arith.sitofp %k64 : i64 to f64
      %t = arith.addf %kf, %y : f64
      memref.store %t, %out[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// b[i][j] = a[i][j+1] on static shapes: nothing for the host to test, so
// the launch itself counts and addresses in i32.
func.func @static_shift(%a: memref<33x31xf64>, %b: memref<33x31xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c30 = arith.constant 30 : index
  %c33 = arith.constant 33 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c33, %c30) step (%c1, %c1) {
    %j1 = arith.addi %j, %c1 : index
    %x = memref.load %a[%i, %j1] : memref<33x31xf64>
    memref.store %x, %b[%i, %j] : memref<33x31xf64>
  }
  return
}

// y = 2 x + y: one-dimensional, left as it is.
func.func @axpy(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %y, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %y[%i] : memref<?xf64>
    %a2 = arith.mulf %a, %two : f64
    %s = arith.addf %a2, %b : f64
    memref.store %s, %y[%i] : memref<?xf64>
  }
  return
}

// Host helpers: integer-valued data, so every sum is exact in any order.

func.func @fill(%a: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c131 = arith.constant 131 : index
  %c1009 = arith.constant 1009 : index
  %c500 = arith.constant 500 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.muli %i, %c131 : index
    %r = arith.remui %x, %c1009 : index
    %s = arith.subi %r, %c500 : index
    %ri = arith.index_cast %s : index to i64
    %rf = arith.sitofp %ri : i64 to f64
    memref.store %rf, %a[%i] : memref<?xf64>
  }
  return
}

// sum of a[i] * (1 + i), printed with its bits.
func.func @report(%a: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %a, %c0 : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %a[%i] : memref<?xf64>
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %w = arith.addf %if, %one : f64
    %p = arith.mulf %v, %w : f64
    %r = arith.addf %acc, %p : f64
    scf.yield %r : f64
  }
  vector.print %s : f64
  %bits = arith.bitcast %s : f64 to i64
  vector.print %bits : i64
  return
}

// A flat buffer of n elements, filled, as an r x c matrix.
func.func @matrix(%r: index, %c: index) -> (memref<?xf64>, memref<?x?xf64>) {
  %n = arith.muli %r, %c : index
  %flat = memref.alloc(%n) : memref<?xf64>
  call @fill(%flat) : (memref<?xf64>) -> ()
  %m = memref.reinterpret_cast %flat to offset: [0], sizes: [%r, %c], strides: [%c, 1] : memref<?xf64> to memref<?x?xf64>
  return %flat, %m : memref<?xf64>, memref<?x?xf64>
}

func.func @run_matmul(%n: index, %k: index, %m: index) {
  %af, %a = call @matrix(%n, %k) : (index, index) -> (memref<?xf64>, memref<?x?xf64>)
  %bf, %b = call @matrix(%k, %m) : (index, index) -> (memref<?xf64>, memref<?x?xf64>)
  %cf, %c = call @matrix(%n, %m) : (index, index) -> (memref<?xf64>, memref<?x?xf64>)
  call @matmul(%a, %b, %c) : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> ()
  vector.print str "matmul "
  call @report(%cf) : (memref<?xf64>) -> ()
  memref.dealloc %af : memref<?xf64>
  memref.dealloc %bf : memref<?xf64>
  memref.dealloc %cf : memref<?xf64>
  return
}

func.func @run_stencil(%n: index, %m: index) {
  %af, %a = call @matrix(%n, %m) : (index, index) -> (memref<?xf64>, memref<?x?xf64>)
  %bf, %b = call @matrix(%n, %m) : (index, index) -> (memref<?xf64>, memref<?x?xf64>)
  call @stencil(%a, %b) : (memref<?x?xf64>, memref<?x?xf64>) -> ()
  vector.print str "stencil "
  call @report(%bf) : (memref<?xf64>) -> ()
  memref.dealloc %af : memref<?xf64>
  memref.dealloc %bf : memref<?xf64>
  return
}

func.func @run_row_sums(%n: index) {
  %af, %a = call @matrix(%n, %n) : (index, index) -> (memref<?xf64>, memref<?x?xf64>)
  %out = memref.alloc(%n) : memref<?xf64>
  call @fill(%out) : (memref<?xf64>) -> ()
  call @row_sums(%a, %out) : (memref<?x?xf64>, memref<?xf64>) -> ()
  vector.print str "row_sums "
  call @report(%out) : (memref<?xf64>) -> ()
  memref.dealloc %af : memref<?xf64>
  memref.dealloc %out : memref<?xf64>
  return
}

func.func @run_cube(%n: index, %m: index, %p: index) {
  %size_inner = arith.muli %m, %p : index
  %size = arith.muli %n, %size_inner : index
  %af = memref.alloc(%size) : memref<?xf64>
  %bf = memref.alloc(%size) : memref<?xf64>
  call @fill(%af) : (memref<?xf64>) -> ()
  call @fill(%bf) : (memref<?xf64>) -> ()
  %a = memref.reinterpret_cast %af to offset: [0], sizes: [%n, %m, %p], strides: [%size_inner, %p, 1] : memref<?xf64> to memref<?x?x?xf64>
  %b = memref.reinterpret_cast %bf to offset: [0], sizes: [%n, %m, %p], strides: [%size_inner, %p, 1] : memref<?xf64> to memref<?x?x?xf64>
  call @cube(%a, %b) : (memref<?x?x?xf64>, memref<?x?x?xf64>) -> ()
  vector.print str "cube "
  call @report(%bf) : (memref<?xf64>) -> ()
  memref.dealloc %af : memref<?xf64>
  memref.dealloc %bf : memref<?xf64>
  return
}

// Views of one 2000-element buffer: in at offset 3 with strides (40, 3),
// out at offset 1 with strides (2, 50) (column-major-like), r x c each;
// then in reversed (offset 1999, strides (-40, -1)); then out with a
// stride of 2^31 over one row.
func.func @run_views(%r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2000 = arith.constant 2000 : index
  %buf = memref.alloc(%c2000) : memref<?xf64>
  call @fill(%buf) : (memref<?xf64>) -> ()
  %in = memref.reinterpret_cast %buf to offset: [3], sizes: [%r, %c], strides: [40, 3] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %out = memref.reinterpret_cast %buf to offset: [1], sizes: [%r, %c], strides: [2, 50] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %copy = memref.alloc(%c2000) : memref<?xf64>
  call @fill(%copy) : (memref<?xf64>) -> ()
  %dst = memref.reinterpret_cast %copy to offset: [1], sizes: [%r, %c], strides: [2, 50] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @view(%in, %dst) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  vector.print str "view "
  call @report(%copy) : (memref<?xf64>) -> ()
  %rev = memref.reinterpret_cast %buf to offset: [1999], sizes: [%r, %c], strides: [-40, -1] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @view(%rev, %dst) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  vector.print str "view "
  call @report(%copy) : (memref<?xf64>) -> ()
  %wide = memref.reinterpret_cast %copy to offset: [5], sizes: [1, %c], strides: [2147483648, 7] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %in1 = memref.reinterpret_cast %buf to offset: [3], sizes: [1, %c], strides: [40, 3] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @view(%in1, %wide) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  vector.print str "view "
  call @report(%copy) : (memref<?xf64>) -> ()
  memref.dealloc %buf : memref<?xf64>
  memref.dealloc %copy : memref<?xf64>
  return
}

func.func @run_static_shift() {
  %a = memref.alloc() : memref<33x31xf64>
  %b = memref.alloc() : memref<33x31xf64>
  %af = memref.reinterpret_cast %a to offset: [0], sizes: [1023], strides: [1] : memref<33x31xf64> to memref<1023xf64>
  %bf = memref.reinterpret_cast %b to offset: [0], sizes: [1023], strides: [1] : memref<33x31xf64> to memref<1023xf64>
  %ad = memref.cast %af : memref<1023xf64> to memref<?xf64>
  %bd = memref.cast %bf : memref<1023xf64> to memref<?xf64>
  call @fill(%ad) : (memref<?xf64>) -> ()
  call @fill(%bd) : (memref<?xf64>) -> ()
  call @static_shift(%a, %b) : (memref<33x31xf64>, memref<33x31xf64>) -> ()
  vector.print str "static_shift "
  call @report(%bd) : (memref<?xf64>) -> ()
  memref.dealloc %a : memref<33x31xf64>
  memref.dealloc %b : memref<33x31xf64>
  return
}

func.func @run_axpy(%n: index) {
  %x = memref.alloc(%n) : memref<?xf64>
  %y = memref.alloc(%n) : memref<?xf64>
  call @fill(%x) : (memref<?xf64>) -> ()
  call @fill(%y) : (memref<?xf64>) -> ()
  call @axpy(%x, %y) : (memref<?xf64>, memref<?xf64>) -> ()
  vector.print str "axpy "
  call @report(%y) : (memref<?xf64>) -> ()
  memref.dealloc %x : memref<?xf64>
  memref.dealloc %y : memref<?xf64>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  call @run_matmul(%c0, %c3, %c5) : (index, index, index) -> ()
  call @run_matmul(%c1, %c1, %c1) : (index, index, index) -> ()
  call @run_matmul(%c31, %c7, %c33) : (index, index, index) -> ()
  call @run_matmul(%c33, %c5, %c31) : (index, index, index) -> ()
  call @run_matmul(%c7, %c0, %c5) : (index, index, index) -> ()
  call @run_stencil(%c31, %c33) : (index, index) -> ()
  call @run_stencil(%c1000, %c777) : (index, index) -> ()
  call @run_row_sums(%c33) : (index) -> ()
  call @run_cube(%c7, %c5, %c33) : (index, index, index) -> ()
  call @run_views(%c31, %c7) : (index, index) -> ()
  call @run_static_shift() : () -> ()
  call @run_axpy(%c1000) : (index) -> ()
  return
}
