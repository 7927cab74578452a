// A cover launch gives each iteration a thread of its own along every
// dimension where its grid fits the limits (65535 blocks along y and z),
// which the host tests, and runs a copy looping along y and z for sizes
// past them. Checked: the host's test and both copies; static sizes that
// fit (one launch, no loop) and that do not (one launch, looping); 1-D
// loops and grid-stride launches as before; the remark. CPU emulation
// against the original at 0x0, 1x1, 31x33 and 1000x77, and at 70000 rows
// (planes) in blocks of 32x1x1, which need 70000 blocks along y (z) and so
// run the looping copy; a mutant whose host test picks the covering copy
// for those too must lose rows.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover block-shape=32,1,1" > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: threadbind-opt %s -threadbind-map-to-gpu | FileCheck %s --check-prefix=STRIDE
// RUN: threadbind-opt %s "-threadbind-map-to-gpu=grid-policy=cover block-shape=32,1,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow
// RUN: sed -e 's/arith.cmpi ule, \(.*\), %c65535 : index/arith.constant true/' %t.mlir > %t.mutant.mlir
// RUN: not diff -q %t.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// Rows: the host tests the blocks the rows need; the first launch guards
// x and y, the second loops over rows.
// CHECK-LABEL: func.func @rows(
// CHECK:         %[[R:.*]] = memref.dim %{{.*}}, %c0
// CHECK:         %[[NR:.*]] = arith.maxsi %[[R]], %c0
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %[[NR]], %c65535
// CHECK:         scf.if %[[FITS]] {
// CHECK:           gpu.launch
// CHECK-NOT:         scf.for
// CHECK:             scf.if
// CHECK:               scf.if
// CHECK:                 memref.store
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK:             scf.for
// CHECK:               scf.if
// CHECK:                 memref.store

// Planes of rows: y and z both tested.
// CHECK-LABEL: func.func @planes(
// CHECK:         arith.cmpi ule, %{{.*}}, %c65535
// CHECK:         arith.cmpi ule, %{{.*}}, %c65535
// CHECK:         %[[BOTH:.*]] = arith.andi
// CHECK:         scf.if %[[BOTH]] {
// CHECK:           gpu.launch
// CHECK-NOT:         scf.for
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK:             scf.for
// CHECK:               scf.for

// Static sizes that fit: one launch, no loop, no test.
// CHECK-LABEL: func.func @fits(
// CHECK-NOT:     arith.cmpi ule
// CHECK:         gpu.launch
// CHECK-NOT:     scf.for
// CHECK:         return

// 70000 rows in blocks of one row: one launch, looping.
// CHECK-LABEL: func.func @too_tall(
// CHECK-NOT:     arith.cmpi ule
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK-NOT:     gpu.launch
// CHECK:         return

// 1-D: one launch, as before.
// CHECK-LABEL: func.func @line(
// CHECK-NOT:     scf.if
// CHECK:         gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return

// Grid-stride launches loop as before, one launch a loop.
// STRIDE-LABEL: func.func @rows(
// STRIDE:         gpu.launch
// STRIDE:           scf.for
// STRIDE-NOT:     gpu.launch
// STRIDE-LABEL: func.func @planes(

// REMARK: remark: bound to gpu.launch: {{.*}}; block 32x1x1, cover grid, a thread an iteration; a copy looping along y and z runs where the host finds they need more than 65535 blocks
// REMARK: remark: bound to gpu.launch: {{.*}}; block 32x1x1, cover grid, a thread an iteration; a copy looping along y and z runs where the host finds they need more than 65535 blocks
// REMARK: remark: bound to gpu.launch: {{.*}}; block 32x1x1, cover grid{{$}}
// REMARK: remark: bound to gpu.launch: {{.*}}; block 32x1x1, cover grid looping along y and z, as they need more than 65535 blocks{{$}}

// Each sum's count and total; the emulated kernels must print the same.
// OUT-COUNT-13: sum

// m[i][j] = 3 m[i][j] + j
func.func @rows(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%r, %c) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    %jj = arith.index_cast %j : index to i64
    %fj = arith.sitofp %jj : i64 to f32
    %t = arith.mulf %v, %three : f32
    %s = arith.addf %t, %fj : f32
    memref.store %s, %m[%i, %j] : memref<?x?xf32>
  }
  return
}

// p[i][j][k] = 2 p[i][j][k] + i - j, from (1, 0, 0) (a lower bound that
// is not 0 along z).
func.func @planes(%p: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  %a = memref.dim %p, %c0 : memref<?x?x?xf32>
  %b = memref.dim %p, %c1 : memref<?x?x?xf32>
  %c = memref.dim %p, %c2 : memref<?x?x?xf32>
  scf.parallel (%i, %j, %k) = (%c1, %c0, %c0) to (%a, %b, %c)
      step (%c1, %c1, %c1) {
    %v = memref.load %p[%i, %j, %k] : memref<?x?x?xf32>
    %d = arith.subi %i, %j : index
    %dd = arith.index_cast %d : index to i64
    %fd = arith.sitofp %dd : i64 to f32
    %t = arith.mulf %v, %two : f32
    %s = arith.addf %t, %fd : f32
    memref.store %s, %p[%i, %j, %k] : memref<?x?x?xf32>
  }
  return
}

func.func @fits(%m: memref<100x200xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c100, %c200) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<100x200xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %m[%i, %j] : memref<100x200xf32>
  }
  return
}

func.func @too_tall(%m: memref<70000x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c70000 = arith.constant 70000 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c70000, %c2) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<70000x2xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %m[%i, %j] : memref<70000x2xf32>
  }
  return
}

func.func @line(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  return
}

// Prints "sum", the element count and the sum of the elements, each
// element first set to its position so that a skipped or repeated
// iteration changes the sum. Every element stays an integer below 2^24,
// exact in f32, and the sum is taken in i64, exactly.
func.func @summarise(%flat: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %flat, %c0 : memref<?xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> i64 {
    %v = memref.load %flat[%i] : memref<?xf32>
    %w = arith.fptosi %v : f32 to i64
    %s = arith.addi %acc, %w : i64
    scf.yield %s : i64
  }
  vector.print str "sum "
  vector.print %n : index
  vector.print %sum : i64
  return
}

func.func @fill(%flat: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %flat, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %flat[%i] : memref<?xf32>
  }
  return
}

func.func @check_rows(%r: index, %c: index) {
  %n = arith.muli %r, %c : index
  %flat = memref.alloc(%n) : memref<?xf32>
  call @fill(%flat) : (memref<?xf32>) -> ()
  %m = memref.reinterpret_cast %flat to offset: [0], sizes: [%r, %c],
      strides: [%c, 1] : memref<?xf32> to memref<?x?xf32>
  call @rows(%m) : (memref<?x?xf32>) -> ()
  call @summarise(%flat) : (memref<?xf32>) -> ()
  memref.dealloc %flat : memref<?xf32>
  return
}

func.func @check_planes(%a: index, %b: index, %c: index) {
  %ab = arith.muli %a, %b : index
  %n = arith.muli %ab, %c : index
  %bc = arith.muli %b, %c : index
  %flat = memref.alloc(%n) : memref<?xf32>
  call @fill(%flat) : (memref<?xf32>) -> ()
  %p = memref.reinterpret_cast %flat to offset: [0], sizes: [%a, %b, %c],
      strides: [%bc, %c, 1] : memref<?xf32> to memref<?x?x?xf32>
  call @planes(%p) : (memref<?x?x?xf32>) -> ()
  call @summarise(%flat) : (memref<?xf32>) -> ()
  memref.dealloc %flat : memref<?xf32>
  return
}

func.func @check_static() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<20000xf32>
  %fa = memref.cast %a : memref<20000xf32> to memref<?xf32>
  call @fill(%fa) : (memref<?xf32>) -> ()
  %m = memref.reinterpret_cast %a to offset: [0], sizes: [100, 200],
      strides: [200, 1] : memref<20000xf32> to memref<100x200xf32>
  call @fits(%m) : (memref<100x200xf32>) -> ()
  call @summarise(%fa) : (memref<?xf32>) -> ()
  memref.dealloc %a : memref<20000xf32>
  %b = memref.alloc() : memref<140000xf32>
  %fb = memref.cast %b : memref<140000xf32> to memref<?xf32>
  call @fill(%fb) : (memref<?xf32>) -> ()
  %t = memref.reinterpret_cast %b to offset: [0], sizes: [70000, 2],
      strides: [2, 1] : memref<140000xf32> to memref<70000x2xf32>
  call @too_tall(%t) : (memref<70000x2xf32>) -> ()
  call @line(%fb) : (memref<?xf32>) -> ()
  call @summarise(%fb) : (memref<?xf32>) -> ()
  memref.dealloc %b : memref<140000xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c77 = arith.constant 77 : index
  %c1000 = arith.constant 1000 : index
  %c70000 = arith.constant 70000 : index
  call @check_rows(%c0, %c0) : (index, index) -> ()
  call @check_rows(%c1, %c1) : (index, index) -> ()
  call @check_rows(%c31, %c33) : (index, index) -> ()
  call @check_rows(%c1000, %c77) : (index, index) -> ()
  call @check_rows(%c70000, %c3) : (index, index) -> ()
  call @check_planes(%c0, %c0, %c0) : (index, index, index) -> ()
  call @check_planes(%c2, %c1, %c1) : (index, index, index) -> ()
  call @check_planes(%c31, %c33, %c3) : (index, index, index) -> ()
  call @check_planes(%c77, %c31, %c33) : (index, index, index) -> ()
  call @check_planes(%c70000, %c2, %c3) : (index, index, index) -> ()
  call @check_planes(%c3, %c70000, %c2) : (index, index, index) -> ()
  call @check_static() : () -> ()
  return
}
