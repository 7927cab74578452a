// A stencil whose contiguous dimension starts off a warp's width (an
// interior from 1) is mapped from the bound rounded down to 32, the
// iterations below it skipped by a test, so that a warp's accesses start
// on a cache line as a hand-written kernel's do. Checked in CPU emulation
// against the original at empty, one-element, ragged (31x33, 33x31, 5x40)
// and 1000x777 sizes: a 5-point stencil from 1 (from 0 after the mapping)
// and one from 33 (from 32) with a step of 2 along y; under the default
// options (and narrowed to i32), a cover grid of 64-thread blocks, and
// grid-stride blocks of 8x4 in at most 3 blocks (every thread looping).
// Loops that keep their bounds: an elementwise loop from 1 (no two
// accesses apart: widening's), a stencil whose x steps by 2, and a 3-D
// stencil whose warps touch as many cache lines from 0 as from 1 (5), where
// the test would cost more than it saves
// (bench/results/2026-11-29-align-3d-h200.md); a 3-D 5-point stencil
// (11 lines from 1, 8 from 0) is mapped from 0. The 3-D ones run at
// 0x3x5, 1x1x1, 2x5x40, 3x31x33 and 4x37x1000. A mutation of the test (the
// skipped iteration run) must change the result.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu > %t.default.mlir
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %t.default.mlir -threadbind-narrow-indices=remarks 2>%t.narrow.remarks > %t.narrow.mlir
// RUN: FileCheck %s --check-prefix=NARROW < %t.narrow.remarks
// RUN: threadbind-opt %t.narrow.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: FileCheck %s --check-prefix=COVER < %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: threadbind-opt %s -threadbind-map-to-gpu="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: sed -e 's/arith.cmpi sge, \(%[^,]*\), %c1 : index/arith.cmpi sge, \1, %c0 : index/' %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// CHECK-LABEL: func.func @from_one(
// CHECK:         gpu.launch
// CHECK:           arith.cmpi sge, %{{.*}}, %c1 : index
// CHECK-LABEL: func.func @from_thirty_three(
// CHECK:         gpu.launch
// CHECK:           arith.cmpi sge, %{{.*}}, %c33 : index
// CHECK-LABEL: func.func @elementwise(
// CHECK-NOT:     arith.cmpi sge
// CHECK-LABEL: func.func @strided_x(
// CHECK-NOT:     arith.cmpi sge
// CHECK-LABEL: func.func @three_d(
// CHECK-NOT:     arith.cmpi sge
// CHECK-LABEL: func.func @three_d_five_point(
// CHECK:         gpu.launch
// CHECK:           arith.cmpi sge, %{{.*}}, %c1 : index
// CHECK-LABEL: func.func @fill(

// Every loop is counted in i32: from_one, from_thirty_three,
// elementwise, strided_x, three_d, three_d_five_point.
// NARROW: remark: 32-bit index copy: 2 loop(s) counted and 6 access(es)
// NARROW: remark: 32-bit index copy: 2 loop(s) counted and 4 access(es)
// NARROW: remark: 32-bit index copy: 2 loop(s) counted and 2 access(es)
// NARROW: remark: 32-bit index copy: 2 loop(s) counted and 3 access(es)
// NARROW: remark: 32-bit index copy: 3 loop(s) counted and 3 access(es)
// NARROW: remark: 32-bit index copy: 3 loop(s) counted and 6 access(es)

// COVER-LABEL: func.func @from_one(
// COVER:         arith.cmpi sge, %{{.*}}, %c1 : index
// COVER-LABEL: func.func @from_thirty_three(
// COVER:         arith.cmpi sge, %{{.*}}, %c33 : index
// COVER-LABEL: func.func @elementwise(
// COVER-NOT:     arith.cmpi sge
// COVER-LABEL: func.func @three_d(
// COVER-NOT:     arith.cmpi sge
// COVER-LABEL: func.func @three_d_five_point(
// COVER:         arith.cmpi sge, %{{.*}}, %c1 : index

// OUT-COUNT-6: sums
// OUT-COUNT-10: sums3

// The remark says where each start moved, or why it stayed, with the
// cache lines counted (i32: a warp's 32 elements fill one line from a
// multiple of 32, two from elsewhere).
// REMARK: remark: bound to gpu.launch: {{.*}}; loop dimension 1 runs from 0, its lower bound 1 rounded down to a warp's width, the iterations below 1 skipped, so that warps start on a cache line (8 lines a warp's accesses touch instead of 11)
// REMARK: remark: bound to gpu.launch: {{.*}}; loop dimension 1 runs from 32, its lower bound 33 {{.*}} (5 lines a warp's accesses touch instead of 7)
// REMARK-NOT: lower bound
// REMARK: remark: bound to gpu.launch: {{.*}}; loop dimension 2 keeps its lower bound 1: from 0 a warp's accesses would touch 5 cache lines against 5 from 1, not a fifth fewer
// REMARK: remark: bound to gpu.launch: {{.*}}; loop dimension 2 runs from 0, {{.*}} (8 lines a warp's accesses touch instead of 11)

// b[i][j] = a[i][j-1] + a[i][j] + a[i][j+1] + a[i-1][j] + a[i+1][j] on the
// interior.
func.func @from_one(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
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

// b[i][j] += a[i][j] - a[i][j-33], j from 33, every other row from 5.
func.func @from_thirty_three(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c33 = arith.constant 33 : index
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%i, %j) = (%c5, %c33) to (%m, %n) step (%c2, %c1) {
    %jm = arith.subi %j, %c33 : index
    %x = memref.load %a[%i, %j] : memref<?x?xi32>
    %y = memref.load %a[%i, %jm] : memref<?x?xi32>
    %o = memref.load %b[%i, %j] : memref<?x?xi32>
    %d = arith.subi %x, %y : i32
    %s = arith.addi %o, %d : i32
    memref.store %s, %b[%i, %j] : memref<?x?xi32>
  }
  return
}

// b[i][j] = 3 a[i][j] from 1: no stencil, the bounds stay.
func.func @elementwise(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3 : i32
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%i, %j) = (%c0, %c1) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xi32>
    %y = arith.muli %x, %three : i32
    memref.store %y, %b[%i, %j] : memref<?x?xi32>
  }
  return
}

// b[i][j] = a[i][j] - a[i][j-1] over odd j: x steps by 2.
func.func @strided_x(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%i, %j) = (%c0, %c1) to (%m, %n) step (%c1, %c2) {
    %jm = arith.subi %j, %c1 : index
    %x = memref.load %a[%i, %j] : memref<?x?xi32>
    %y = memref.load %a[%i, %jm] : memref<?x?xi32>
    %d = arith.subi %x, %y : i32
    memref.store %d, %b[%i, %j] : memref<?x?xi32>
  }
  return
}

// c[k][i][j] = a[k][i][j-1] + a[k][i][j+1]: three dimensions.
func.func @three_d(%a: memref<?x?x?xi32>, %c: memref<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %l = memref.dim %a, %c0 : memref<?x?x?xi32>
  %m = memref.dim %a, %c1 : memref<?x?x?xi32>
  %n = memref.dim %a, %c2 : memref<?x?x?xi32>
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%k, %i, %j) = (%c0, %c0, %c1) to (%l, %m, %n1) step (%c1, %c1, %c1) {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %x = memref.load %a[%k, %i, %jm] : memref<?x?x?xi32>
    %y = memref.load %a[%k, %i, %jp] : memref<?x?x?xi32>
    %s = arith.addi %x, %y : i32
    memref.store %s, %c[%k, %i, %j] : memref<?x?x?xi32>
  }
  return
}

// c[k][i][j] = a[k][i][j] + a[k][i][j-1] + a[k][i][j+1] + a[k][i-1][j]
// + a[k][i+1][j] on the interior of each plane k.
func.func @three_d_five_point(%a: memref<?x?x?xi32>, %c: memref<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %l = memref.dim %a, %c0 : memref<?x?x?xi32>
  %m = memref.dim %a, %c1 : memref<?x?x?xi32>
  %n = memref.dim %a, %c2 : memref<?x?x?xi32>
  %m1 = arith.subi %m, %c1 : index
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%k, %i, %j) = (%c0, %c1, %c1) to (%l, %m1, %n1) step (%c1, %c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %x0 = memref.load %a[%k, %i, %j] : memref<?x?x?xi32>
    %x1 = memref.load %a[%k, %i, %jm] : memref<?x?x?xi32>
    %x2 = memref.load %a[%k, %i, %jp] : memref<?x?x?xi32>
    %x3 = memref.load %a[%k, %im, %j] : memref<?x?x?xi32>
    %x4 = memref.load %a[%k, %ip, %j] : memref<?x?x?xi32>
    %s1 = arith.addi %x0, %x1 : i32
    %s2 = arith.addi %s1, %x2 : i32
    %s3 = arith.addi %s2, %x3 : i32
    %s4 = arith.addi %s3, %x4 : i32
    memref.store %s4, %c[%k, %i, %j] : memref<?x?x?xi32>
  }
  return
}

// a[i][j] = (i * 131 + j * 7) mod 11 - 5; b = 1
func.func @fill(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c131 = arith.constant 131 : index
  %c11 = arith.constant 11 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
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
      memref.store %v, %a[%i, %j] : memref<?x?xi32>
      memref.store %one, %b[%i, %j] : memref<?x?xi32>
    }
  }
  return
}

// sum of b[i][j] * ((i * 3 + j) mod 7 + 1)
func.func @checksum(%b: memref<?x?xi32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i64
  %m = memref.dim %b, %c0 : memref<?x?xi32>
  %n = memref.dim %b, %c1 : memref<?x?xi32>
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> i64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%u = %acc) -> i64 {
      %v = memref.load %b[%i, %j] : memref<?x?xi32>
      %w = arith.extsi %v : i32 to i64
      %x = arith.muli %i, %c3 : index
      %y = arith.addi %x, %j : index
      %r = arith.remui %y, %c7 : index
      %k = arith.addi %r, %c1 : index
      %ki = arith.index_cast %k : index to i64
      %p = arith.muli %w, %ki : i64
      %q = arith.addi %u, %p : i64
      scf.yield %q : i64
    }
    scf.yield %t : i64
  }
  return %s : i64
}

func.func @run(%m: index, %n: index) {
  %a = memref.alloc(%m, %n) : memref<?x?xi32>
  %b = memref.alloc(%m, %n) : memref<?x?xi32>
  call @fill(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  call @from_one(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s1 = call @checksum(%b) : (memref<?x?xi32>) -> i64
  call @from_thirty_three(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s2 = call @checksum(%b) : (memref<?x?xi32>) -> i64
  call @elementwise(%b, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s3 = call @checksum(%b) : (memref<?x?xi32>) -> i64
  call @strided_x(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s4 = call @checksum(%b) : (memref<?x?xi32>) -> i64
  vector.print str "sums "
  vector.print %s1 : i64
  vector.print %s2 : i64
  vector.print %s3 : i64
  vector.print %s4 : i64
  memref.dealloc %a : memref<?x?xi32>
  memref.dealloc %b : memref<?x?xi32>
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
  call @three_d(%a, %c) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  %s = call @checksum3(%c) : (memref<?x?x?xi32>) -> i64
  vector.print str "sums3 "
  vector.print %s : i64
  call @three_d_five_point(%a, %c) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  %s5 = call @checksum3(%c) : (memref<?x?x?xi32>) -> i64
  vector.print str "sums3 "
  vector.print %s5 : i64
  memref.dealloc %a : memref<?x?x?xi32>
  memref.dealloc %c : memref<?x?x?xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c40 = arith.constant 40 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  call @run(%c0, %c5) : (index, index) -> ()
  call @run(%c1, %c1) : (index, index) -> ()
  call @run(%c31, %c33) : (index, index) -> ()
  call @run(%c33, %c31) : (index, index) -> ()
  call @run(%c5, %c40) : (index, index) -> ()
  call @run(%c1000, %c777) : (index, index) -> ()
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c37 = arith.constant 37 : index
  call @run3(%c0, %c3, %c5) : (index, index, index) -> ()
  call @run3(%c1, %c1, %c1) : (index, index, index) -> ()
  call @run3(%c2, %c5, %c40) : (index, index, index) -> ()
  call @run3(%c3, %c31, %c33) : (index, index, index) -> ()
  call @run3(%c4, %c37, %c1000) : (index, index, index) -> ()
  return
}
