// A stencil nest under the grid-stride policy becomes two launches in a
// host scf.if (stencil-cover, on by default): a cover launch, a thread an iteration, where every outer stride
// of the memrefs it accesses is a whole number of vectors and the cover
// grid fits, and the grid-stride launch otherwise. Widening widens the
// cover launch and keeps the choice; where it cannot widen it, the
// grid-stride launch runs alone. Nests that are no stencil along x, a cap
// on the grid, vectors of one element, the cover policy and
// stencil-cover=false keep one launch. Static sizes settle the choice
// when the IR is canonicalized: an aligned row length keeps the cover
// launch alone, an odd one the grid-stride launch. CPU emulation of every
// form matches the program as written, at aligned and odd row lengths,
// and so does threadbind-compile's bound MLIR.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s "-threadbind-map-to-gpu=sequential-fallback=false remarks" -o %t.mapped.mlir 2>%t.map.remarks
// RUN: FileCheck %s --check-prefix=MAP < %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAP-REMARK < %t.map.remarks
// RUN: threadbind-opt %t.mapped.mlir "-threadbind-widen-accesses=nested-loops remarks" -o %t.widened.mlir 2>%t.widen.remarks
// RUN: FileCheck %s --check-prefix=WIDE < %t.widened.mlir
// RUN: FileCheck %s --check-prefix=WIDE-REMARK < %t.widen.remarks
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// RUN: threadbind-opt %t.widened.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.widened
// RUN: diff %t.ref %t.widened
// RUN: threadbind-opt %t.widened.mlir -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.narrow
// RUN: diff %t.ref %t.narrow
// RUN: threadbind-compile --emit=mlir %s -o %t.compiled.mlir
// RUN: FileCheck %s --check-prefix=COMPILED < %t.compiled.mlir
// RUN: threadbind-opt %t.compiled.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.compiled
// RUN: diff %t.ref %t.compiled
// In 32x1 blocks, 70000 rows need more than 65535 blocks along y, and the
// host runs the grid-stride launch.
// RUN: threadbind-compile --emit=mlir --block-shape=32,1 %s -o - | threadbind-opt -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.tall
// RUN: diff %t.ref %t.tall
// A mutant taking the wrong lane of the cover launch's row vector fails.
// RUN: sed -e 's/\[3\] : i32 from vector<4xi32>/[2] : i32 from vector<4xi32>/' %t.widened.mlir > %t.mutant.mlir
// RUN: not diff -q %t.widened.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant
// One launch a nest with a grid cap, without vectors, under the cover
// policy, and when told so; the pass alone makes one unless asked.
// RUN: threadbind-compile --emit=mlir --max-blocks=8 %s -o - | FileCheck %s --check-prefix=ONE
// RUN: threadbind-compile --emit=mlir --vector-bytes=0 %s -o - | FileCheck %s --check-prefix=ONE
// RUN: threadbind-compile --emit=mlir --grid-policy=cover %s -o - | FileCheck %s --check-prefix=ONE-COVER
// RUN: threadbind-compile --emit=mlir --stencil-cover=false %s -o - | FileCheck %s --check-prefix=ONE
// RUN: threadbind-opt %s -threadbind-map-to-gpu=stencil-cover=false | FileCheck %s --check-prefix=ONE
// RUN: threadbind-opt %s -threadbind-normalize -threadbind-map-reductions -threadbind-map-loops-to-threads | FileCheck %s --check-prefix=ONE
// RUN: threadbind-opt %s -threadbind-normalize -threadbind-map-reductions -threadbind-map-loops-to-threads=stencil-cover -canonicalize -cse | FileCheck %s --check-prefix=MAP

// MAP-REMARK: remark: bound to gpu.launch: loop dimension 1 on threadIdx.x because {{.*}}; its rows are read at shifted offsets (a stencil's), so a cover launch, a thread an iteration, runs instead where the host finds every outer stride a whole number of 4 elements and the grid fitting, for threadbind-widen-accesses to widen (which drops it where it cannot)
// MAP-REMARK: remark: bound to gpu.launch: loop dimension 2 on threadIdx.x because {{.*}}; block 64x4x1, grid-stride grid; its rows are read at shifted offsets (a stencil's), so a cover launch in 16x16x1 blocks, a thread an iteration, runs instead
// MAP-REMARK: remark: bound to gpu.launch: loop dimension 1 on threadIdx.x because {{.*}}; its rows are read at shifted offsets (a stencil's), so a cover launch, a thread an iteration, runs instead where the host finds every outer stride a whole number of 4 elements and the grid fitting, for threadbind-widen-accesses to widen (which drops it where it cannot)
// MAP-REMARK: remark: bound to gpu.launch: loop dimension 1 on threadIdx.x because {{.*}}; its rows are read at shifted offsets (a stencil's), so a cover launch, a thread an iteration, runs instead where the host finds every outer stride a whole number of 2 elements
// MAP-REMARK-NOT: its rows are read at shifted offsets
// MAP-REMARK: remark: bound to gpu.launch: loop dimension 1 on threadIdx.x because {{.*}}; its rows are read at shifted offsets (a stencil's), so a cover launch
// MAP-REMARK-NOT: its rows are read at shifted offsets

// WIDE-REMARK: remark: not widened: each iteration runs a 'scf.for' of its own
// WIDE-REMARK-COUNT-2: remark: not widened: its rows are read at shifted offsets (a stencil's), which a grid-stride nest does not widen; the host runs the cover launch beside it where every row starts alike
// WIDE-REMARK: remark: widened: 4 elements a vector, 1 vector a thread an iteration, 3 vector loads and 1 vector store, the first elements
// WIDE-REMARK: remark: not widened: each iteration runs a 'scf.for' of its own
// WIDE-REMARK: remark: not widened: its rows are read at shifted offsets (a stencil's), which are widened in cover launches (--grid-policy=cover)
// WIDE-REMARK: remark: widened: 4 elements a vector, 1 vector a thread an iteration, 3 vector loads and 1 vector store, the shifted reads of 3 rows
// WIDE-REMARK: remark: widened: 4 elements a vector, 1 vector a thread an iteration, 5 vector loads and 1 vector store, the shifted reads of 5 rows taken from its vectors and 2 elements loaded singly
// WIDE-REMARK: remark: widened: 2 elements a vector, 1 vector a thread an iteration, 1 vector load and 1 vector store, the shifted reads of 1 row

// The host tests both memrefs' row strides and the cover grid, then runs
// the cover launch or the grid-stride one.
// MAP-LABEL: func.func @five_point(
// MAP-DAG: %[[SA:.*]], %{{.*}}, %{{.*}}:2, %[[STRIDES_A:.*]]:2 = memref.extract_strided_metadata %arg0
// MAP-DAG: arith.remui %[[STRIDES_A]]#0, %c4
// MAP-DAG: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES_B:.*]]:2 = memref.extract_strided_metadata %arg1
// MAP-DAG: arith.remui %[[STRIDES_B]]#0, %c4
// MAP: scf.if
// MAP: gpu.launch
// MAP: } {threadbind.grid_policy = "cover", threadbind.stencil_choice}
// MAP-NEXT: } else {
// MAP: gpu.launch
// MAP: } {threadbind.grid_policy = "grid-stride", threadbind.stencil_choice}
// MAP-LABEL: func.func @seven_point(
// MAP: scf.if
// MAP: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c16{{.*}}, {{.*}} = %c16{{.*}}, {{.*}} = %c1{{.*}})
// MAP: } {threadbind.grid_policy = "cover", threadbind.stencil_choice}
// MAP-NEXT: } else {
// MAP: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c64{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}})
// MAP: } {threadbind.grid_policy = "grid-stride", threadbind.stencil_choice}
// MAP-LABEL: func.func @no_stencil_along_x(
// MAP-NOT: scf.if
// MAP: gpu.launch
// MAP-NOT: stencil_choice
// MAP-LABEL: func.func @inner_loop(
// MAP: threadbind.stencil_choice
// MAP-LABEL: func.func @aligned_static(
// MAP-NOT: } else {
// MAP: } {threadbind.grid_policy = "cover", threadbind.stencil_choice}
// MAP-NOT: gpu.launch
// MAP-LABEL: func.func @odd_static(
// MAP-NOT: } else {
// MAP: } {threadbind.grid_policy = "grid-stride", threadbind.stencil_choice}
// MAP-NOT: gpu.launch
// MAP-LABEL: func.func @fill(

// Widened, the choice stays, without the copy of the launch as it was
// that a cover launch of its own gets; the marks go.
// WIDE-LABEL: func.func @five_point(
// WIDE: scf.if
// WIDE: gpu.launch
// WIDE: vector.load
// WIDE: } {threadbind.grid_policy = "cover"}
// WIDE-NEXT: } else {
// WIDE: gpu.launch
// WIDE-NOT: vector.load
// WIDE: } {threadbind.grid_policy = "grid-stride"}
// WIDE-NEXT: }
// WIDE-NEXT: return
// The cover launch not widened is dropped: the grid-stride launch runs
// alone.
// WIDE-LABEL: func.func @inner_loop(
// WIDE-NOT: scf.if
// WIDE: gpu.launch
// WIDE: } {threadbind.grid_policy = "grid-stride"}
// WIDE-NEXT: return
// WIDE-LABEL: func.func @aligned_static(
// WIDE: vector.load
// WIDE: } {threadbind.grid_policy = "cover"}
// WIDE-NOT: stencil_choice

// In the bound MLIR, the five-point stencil's choice: the widened cover
// launch and the grid-stride launch (and their 32-bit copies).
// COMPILED-LABEL: func.func @five_point(
// COMPILED: scf.if
// COMPILED: vector.load
// COMPILED: {threadbind.grid_policy = "cover"}
// COMPILED: } else {
// COMPILED: {threadbind.grid_policy = "grid-stride"}
// COMPILED-LABEL: func.func @no_stencil_along_x(
// COMPILED-NOT: "cover"
// COMPILED-LABEL: func.func @inner_loop(
// COMPILED-NOT: "cover"
// COMPILED-LABEL: func.func @aligned_static(
// COMPILED-NOT: "grid-stride"
// COMPILED-LABEL: func.func @odd_static(
// COMPILED-NOT: "cover"
// COMPILED-LABEL: func.func @fill(

// ONE-LABEL: func.func @five_point(
// ONE-NOT: "cover"
// ONE-NOT: stencil_choice
// ONE: func.func @fill(
// ONE-COVER-LABEL: func.func @five_point(
// ONE-COVER-NOT: "grid-stride"
// ONE-COVER: func.func @fill(

// OUT-COUNT-8: sums
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

// A 3-D 7-point stencil: its cover launch takes 16x16x1 blocks (a row of
// blocks 64 elements wide once widened), its grid-stride launch 64x4x1.
// c[k][i][j] = a[k][i][j-1] + a[k][i][j+1] + a[k-1][i][j] + a[k+1][i][j]
//   + a[k][i-1][j] + a[k][i+1][j] - a[k][i][j] on the interior.
func.func @seven_point(%a: memref<?x?x?xi32>, %c: memref<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
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
    %w = memref.load %a[%k, %i, %jm] : memref<?x?x?xi32>
    %e = memref.load %a[%k, %i, %jp] : memref<?x?x?xi32>
    %b = memref.load %a[%km, %i, %j] : memref<?x?x?xi32>
    %f = memref.load %a[%kp, %i, %j] : memref<?x?x?xi32>
    %no = memref.load %a[%k, %im, %j] : memref<?x?x?xi32>
    %so = memref.load %a[%k, %ip, %j] : memref<?x?x?xi32>
    %x = memref.load %a[%k, %i, %j] : memref<?x?x?xi32>
    %s1 = arith.addi %w, %e : i32
    %s2 = arith.addi %s1, %b : i32
    %s3 = arith.addi %s2, %f : i32
    %s4 = arith.addi %s3, %no : i32
    %s5 = arith.addi %s4, %so : i32
    %s6 = arith.subi %s5, %x : i32
    memref.store %s6, %c[%k, %i, %j] : memref<?x?x?xi32>
  }
  return
}

// Neighbours above and below only: every row is read at one offset, which
// a grid-stride nest widens.
// b[i][j] += a[i-1][j] - a[i+1][j] on rows 1 to m-1.
func.func @no_stencil_along_x(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  %m1 = arith.subi %m, %c1 : index
  scf.parallel (%i, %j) = (%c1, %c0) to (%m1, %n) step (%c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %no = memref.load %a[%im, %j] : memref<?x?xi32>
    %so = memref.load %a[%ip, %j] : memref<?x?xi32>
    %old = memref.load %b[%i, %j] : memref<?x?xi32>
    %d = arith.subi %no, %so : i32
    %v = arith.addi %old, %d : i32
    memref.store %v, %b[%i, %j] : memref<?x?xi32>
  }
  return
}

// A stencil each of whose iterations runs a loop of its own (k from 0 to
// i mod 3, a recurrence), which widening leaves alone: the cover launch is
// dropped.
// b[i][j] = t_(i mod 3) where t_0 = a[i][j-1] + a[i][j+1] and
// t_(k+1) = 3 t_k + a[i-1][j].
func.func @inner_loop(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %three = arith.constant 3 : i32
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  %m1 = arith.subi %m, %c1 : index
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%i, %j) = (%c1, %c1) to (%m1, %n1) step (%c1, %c1) {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %im = arith.subi %i, %c1 : index
    %w = memref.load %a[%i, %jm] : memref<?x?xi32>
    %e = memref.load %a[%i, %jp] : memref<?x?xi32>
    %s = arith.addi %w, %e : i32
    %trips = arith.remui %i, %c3 : index
    %t = scf.for %k = %c0 to %trips step %c1 iter_args(%acc = %s) -> i32 {
      %no = memref.load %a[%im, %j] : memref<?x?xi32>
      %x3 = arith.muli %acc, %three : i32
      %x = arith.addi %x3, %no : i32
      scf.yield %x : i32
    }
    memref.store %t, %b[%i, %j] : memref<?x?xi32>
  }
  return
}

// 3-point stencils on static rows of 64 and 63 f64 elements (2 a vector).
func.func @aligned_static(%a: memref<9x64xf64>, %b: memref<9x64xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c63 = arith.constant 63 : index
  scf.parallel (%i, %j) = (%c0, %c1) to (%c9, %c63) step (%c1, %c1) {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %a[%i, %jm] : memref<9x64xf64>
    %e = memref.load %a[%i, %jp] : memref<9x64xf64>
    %s = arith.subf %e, %w : f64
    memref.store %s, %b[%i, %j] : memref<9x64xf64>
  }
  return
}

func.func @odd_static(%a: memref<9x63xf64>, %b: memref<9x63xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c62 = arith.constant 62 : index
  scf.parallel (%i, %j) = (%c0, %c1) to (%c9, %c62) step (%c1, %c1) {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %a[%i, %jm] : memref<9x63xf64>
    %e = memref.load %a[%i, %jp] : memref<9x63xf64>
    %s = arith.subf %e, %w : f64
    memref.store %s, %b[%i, %j] : memref<9x63xf64>
  }
  return
}

// a[i][j] = (i * 131 + j * 7) mod 11 - 5, b = 1
func.func @fill(%a: memref<?x?xi32>, %b: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c131 = arith.constant 131 : index
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
      %x = arith.muli %i, %c3 : index
      %y = arith.addi %x, %j : index
      %r = arith.remui %y, %c7 : index
      %k = arith.addi %r, %c1 : index
      %ki = arith.index_cast %k : index to i64
      %v = memref.load %b[%i, %j] : memref<?x?xi32>
      %w = arith.extsi %v : i32 to i64
      %p = arith.muli %w, %ki : i64
      %q = arith.addi %u, %p : i64
      scf.yield %q : i64
    }
    scf.yield %t : i64
  }
  return %s : i64
}

// sum of b[i][j] * (i * 64 + j + 1)
func.func @checksum_static(%b: memref<9x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %b, %c1 : memref<9x?xf64>
  %s = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> f64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%u = %acc) -> f64 {
      %x = arith.muli %i, %c64 : index
      %y = arith.addi %x, %j : index
      %k = arith.addi %y, %c1 : index
      %ki = arith.index_cast %k : index to i64
      %kd = arith.sitofp %ki : i64 to f64
      %v = memref.load %b[%i, %j] : memref<9x?xf64>
      %p = arith.mulf %v, %kd : f64
      %q = arith.addf %u, %p : f64
      scf.yield %q : f64
    }
    scf.yield %t : f64
  }
  return %s : f64
}

func.func @run2(%m: index, %n: index) {
  %a = memref.alloc(%m, %n) : memref<?x?xi32>
  %b = memref.alloc(%m, %n) : memref<?x?xi32>
  call @fill(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  call @five_point(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s1 = call @checksum(%b) : (memref<?x?xi32>) -> i64
  call @no_stencil_along_x(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s2 = call @checksum(%b) : (memref<?x?xi32>) -> i64
  call @inner_loop(%a, %b) : (memref<?x?xi32>, memref<?x?xi32>) -> ()
  %s3 = call @checksum(%b) : (memref<?x?xi32>) -> i64
  vector.print str "sums "
  vector.print %s1 : i64
  vector.print %s2 : i64
  vector.print %s3 : i64
  memref.dealloc %a : memref<?x?xi32>
  memref.dealloc %b : memref<?x?xi32>
  return
}

// a[k][i][j] = (k * 17 + i * 131 + j * 7) mod 11 - 5, c = 1; then the
// sum of c[k][i][j] * ((k + i * 3 + j) mod 7 + 1).
func.func @run3(%l: index, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c17 = arith.constant 17 : index
  %c131 = arith.constant 131 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i64
  %a = memref.alloc(%l, %m, %n) : memref<?x?x?xi32>
  %c = memref.alloc(%l, %m, %n) : memref<?x?x?xi32>
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
  call @seven_point(%a, %c) : (memref<?x?x?xi32>, memref<?x?x?xi32>) -> ()
  %sum = scf.for %k = %c0 to %l step %c1 iter_args(%acc0 = %zero) -> i64 {
    %t = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %acc0) -> i64 {
      %u = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> i64 {
        %e = memref.load %c[%k, %i, %j] : memref<?x?x?xi32>
        %ew = arith.extsi %e : i32 to i64
        %x = arith.muli %i, %c3 : index
        %y0 = arith.addi %x, %j : index
        %y = arith.addi %y0, %k : index
        %r = arith.remui %y, %c7 : index
        %q = arith.addi %r, %c1 : index
        %qi = arith.index_cast %q : index to i64
        %p = arith.muli %ew, %qi : i64
        %o = arith.addi %acc2, %p : i64
        scf.yield %o : i64
      }
      scf.yield %u : i64
    }
    scf.yield %t : i64
  }
  vector.print str "sums3 "
  vector.print %sum : i64
  memref.dealloc %a : memref<?x?x?xi32>
  memref.dealloc %c : memref<?x?x?xi32>
  return
}

func.func @run_static() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  %zero = arith.constant 0.0 : f64
  %a = memref.alloc() : memref<9x64xf64>
  %b = memref.alloc() : memref<9x64xf64>
  %a2 = memref.alloc() : memref<9x63xf64>
  %b2 = memref.alloc() : memref<9x63xf64>
  scf.for %i = %c0 to %c9 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %x = arith.muli %i, %c64 : index
      %y = arith.muli %j, %j : index
      %z = arith.addi %x, %y : index
      %zi = arith.index_cast %z : index to i64
      %v = arith.sitofp %zi : i64 to f64
      memref.store %v, %a[%i, %j] : memref<9x64xf64>
      memref.store %zero, %b[%i, %j] : memref<9x64xf64>
      %in = arith.cmpi slt, %j, %c63 : index
      scf.if %in {
        memref.store %v, %a2[%i, %j] : memref<9x63xf64>
        memref.store %zero, %b2[%i, %j] : memref<9x63xf64>
      }
    }
  }
  call @aligned_static(%a, %b) : (memref<9x64xf64>, memref<9x64xf64>) -> ()
  call @odd_static(%a2, %b2) : (memref<9x63xf64>, memref<9x63xf64>) -> ()
  %bc = memref.cast %b : memref<9x64xf64> to memref<9x?xf64>
  %b2c = memref.cast %b2 : memref<9x63xf64> to memref<9x?xf64>
  %s1 = call @checksum_static(%bc) : (memref<9x?xf64>) -> f64
  %s2 = call @checksum_static(%b2c) : (memref<9x?xf64>) -> f64
  vector.print str "sums "
  vector.print %s1 : f64
  vector.print %s2 : f64
  memref.dealloc %a : memref<9x64xf64>
  memref.dealloc %b : memref<9x64xf64>
  memref.dealloc %a2 : memref<9x63xf64>
  memref.dealloc %b2 : memref<9x63xf64>
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
  %c776 = arith.constant 776 : index
  %c70000 = arith.constant 70000 : index
  %c8 = arith.constant 8 : index
  call @run2(%c0, %c5) : (index, index) -> ()
  call @run2(%c1, %c1) : (index, index) -> ()
  call @run2(%c31, %c33) : (index, index) -> ()
  call @run2(%c5, %c40) : (index, index) -> ()
  call @run2(%c1000, %c776) : (index, index) -> ()
  call @run2(%c1000, %c777) : (index, index) -> ()
  call @run2(%c70000, %c8) : (index, index) -> ()
  call @run_static() : () -> ()
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c20 = arith.constant 20 : index
  %c64 = arith.constant 64 : index
  call @run3(%c0, %c3, %c5) : (index, index, index) -> ()
  call @run3(%c1, %c1, %c1) : (index, index, index) -> ()
  call @run3(%c3, %c5, %c40) : (index, index, index) -> ()
  call @run3(%c4, %c7, %c33) : (index, index, index) -> ()
  call @run3(%c5, %c20, %c64) : (index, index, index) -> ()
  call @run3(%c4, %c40, %c31) : (index, index, index) -> ()
  return
}
