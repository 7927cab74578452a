// Nests that walk row-major memrefs in the loop's order run as one loop
// over the product of their extents when the memrefs' inner sizes equal
// the extents at run time, and as written otherwise. Checked in CPU
// emulation against the original: whole arrays (the one-loop version),
// a nest over part of each row (the nest as written), a 3-D nest of i8,
// the loop dimensions written in the other order, and a memref.dim in the
// body, which still sees the 2-D memref.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -split-input-file -threadbind-collapse-contiguous-nests | FileCheck %s
// RUN: sed -n '/^module @run/,$p' %s > %t.run.mlir
// RUN: threadbind-opt %t.run.mlir %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.run.mlir -threadbind-map-to-gpu -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped
// RUN: threadbind-opt %t.run.mlir -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %t.run.mlir -threadbind-map-to-gpu="collapse-nests=false" | FileCheck %s --check-prefix=OFF
// RUN: threadbind-opt %t.run.mlir -threadbind-map-to-gpu=remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// REMARK: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x because it is the loop's only dimension; block 256x1x1, grid-stride grid; a 2-D nest collapsed into this loop, as every access walks its memref in the loop's order (the nest as written runs where a memref's rows are longer than the loop's)
// REMARK-NOT: folded away

// CHECK-LABEL: func.func @add(
// CHECK-SAME:    %[[A:[^:]*]]: memref<?x?xf32>, %[[B:[^:]*]]: memref<?x?xf32>, %[[C:[^:]*]]: memref<?x?xf32>)
// CHECK:         %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK:         %[[N:.*]] = memref.dim %[[A]], %c1
// CHECK:         %[[NB:.*]] = memref.dim %[[B]], %{{.*}}
// CHECK:         arith.cmpi eq, %[[NB]], %[[N]]
// CHECK:         memref.dim
// CHECK:         %[[ALL:.*]] = arith.andi
// CHECK-NEXT:    scf.if %[[ALL]] {
// CHECK:           %[[T:.*]] = arith.muli %[[M]], %[[N]]
// CHECK-DAG:       %[[A1:.*]] = memref.collapse_shape %[[A]] {{\[\[}}0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK-DAG:       %[[C1:.*]] = memref.collapse_shape %[[C]] {{\[\[}}0, 1]]
// CHECK:           scf.parallel (%[[L:.*]]) = (%{{.*}}) to (%[[T]])
// CHECK:             memref.load %[[A1]][%[[L]]]
// CHECK:             memref.store %{{.*}}, %[[C1]][%[[L]]]
// CHECK:         } else {
// CHECK:           scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK:             memref.load %[[A]][%[[I]], %[[J]]]
func.func @add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// Static sizes that match: no run-time test is left after folding.
// CHECK-LABEL: func.func @static_scale(
// CHECK:         memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : memref<4x6x8xi8> into memref<192xi8>
func.func @static_scale(%a: memref<4x6x8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2 : i8
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c4, %c6, %c8) step (%c1, %c1, %c1) {
    %x = memref.load %a[%i, %j, %k] : memref<4x6x8xi8>
    %y = arith.muli %x, %two : i8
    memref.store %y, %a[%i, %j, %k] : memref<4x6x8xi8>
  }
  return
}

// -----

// Not collapsed: a transposed access; an induction variable used as a
// value; a loop from 1.
// CHECK-LABEL: func.func @not_contiguous(
// CHECK-NOT:     memref.collapse_shape
// CHECK:         return
func.func @not_contiguous(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<?x?xf32>
    memref.store %x, %b[%i, %j] : memref<?x?xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = arith.index_cast %j : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %b[%i, %j] : memref<?x?xf32>
  }
  scf.parallel (%i, %j) = (%c1, %c0) to (%n, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    memref.store %x, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// OFF-NOT: memref.collapse_shape
// OUT: whole 276430
// OUT: part 57820
// OUT: cube 12
// OUT: swapped 276430
// OUT: dims 248765
module @run {
  func.func @add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = memref.load %b[%i, %j] : memref<?x?xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i, %j] : memref<?x?xf32>
    }
    return
  }
  // The loop dimensions in the other order: j outer, i inner.
  func.func @add_swapped(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%j, %i) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = memref.load %b[%i, %j] : memref<?x?xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i, %j] : memref<?x?xf32>
    }
    return
  }
  // A memref.dim in the body: the row length, as written.
  func.func @add_dims(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %w = memref.dim %b, %c1 : memref<?x?xf32>
      %wi = arith.index_cast %w : index to i32
      %wf = arith.sitofp %wi : i32 to f32
      %s = arith.addf %x, %wf : f32
      %t = arith.subf %s, %wf : f32
      memref.store %t, %c[%i, %j] : memref<?x?xf32>
    }
    return
  }
  func.func @cube(%a: memref<?x?x?xi8>, %m: index, %n: index, %p: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i8
    scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%m, %n, %p) step (%c1, %c1, %c1) {
      %x = memref.load %a[%i, %j, %k] : memref<?x?x?xi8>
      %y = arith.addi %x, %one : i8
      memref.store %y, %a[%i, %j, %k] : memref<?x?x?xi8>
    }
    return
  }
  // sum of c[i][j] * (1 + i + 100 j) over the whole array, as an integer.
  func.func @check(%c: memref<?x?xf32>) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %m = memref.dim %c, %c0 : memref<?x?xf32>
    %n = memref.dim %c, %c1 : memref<?x?xf32>
    %zero = arith.constant 0 : i64
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> i64 {
      %t = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> i64 {
        %v = memref.load %c[%i, %j] : memref<?x?xf32>
        %vi = arith.fptosi %v : f32 to i64
        %w0 = arith.muli %j, %c100 : index
        %w1 = arith.addi %w0, %i : index
        %w2 = arith.addi %w1, %c1 : index
        %wi = arith.index_cast %w2 : index to i64
        %p = arith.muli %vi, %wi : i64
        %r = arith.addi %acc2, %p : i64
        scf.yield %r : i64
      }
      scf.yield %t : i64
    }
    return %s : i64
  }
  // a[i][j] = i + j, b = 1, c = 0 on 5x11 arrays.
  func.func @arrays() -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %a = memref.alloc(%c5, %c11) : memref<?x?xf32>
    %b = memref.alloc(%c5, %c11) : memref<?x?xf32>
    %c = memref.alloc(%c5, %c11) : memref<?x?xf32>
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c5 step %c1 {
      scf.for %j = %c0 to %c11 step %c1 {
        %s = arith.addi %i, %j : index
        %si = arith.index_cast %s : index to i32
        %sf = arith.sitofp %si : i32 to f32
        memref.store %sf, %a[%i, %j] : memref<?x?xf32>
        memref.store %one, %b[%i, %j] : memref<?x?xf32>
        memref.store %zero, %c[%i, %j] : memref<?x?xf32>
      }
    }
    return %a, %b, %c : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  }
  func.func @main() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %a, %b, %c = call @arrays() : () -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
    call @add(%a, %b, %c, %c5, %c11) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index) -> ()
    %s1 = call @check(%c) : (memref<?x?xf32>) -> i64
    vector.print str "whole "
    vector.print %s1 : i64
    // Part of each row (7 of 11) and of the rows (4 of 5): the nest as
    // written, the rest of c untouched.
    %a2, %b2, %c2m = call @arrays() : () -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
    call @add(%a2, %b2, %c2m, %c4, %c7) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index) -> ()
    %s2 = call @check(%c2m) : (memref<?x?xf32>) -> i64
    vector.print str "part "
    vector.print %s2 : i64
    %cube = memref.alloc(%c2, %c3, %c2) : memref<?x?x?xi8>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z8 = arith.constant 0 : i8
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        scf.for %k = %c0 to %c2 step %c1 {
          memref.store %z8, %cube[%i, %j, %k] : memref<?x?x?xi8>
        }
      }
    }
    call @cube(%cube, %c2, %c3, %c2) : (memref<?x?x?xi8>, index, index, index) -> ()
    %zero = arith.constant 0 : i64
    %s3 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> i64 {
      %t = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc2 = %acc) -> i64 {
        %u = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc3 = %acc2) -> i64 {
          %v = memref.load %cube[%i, %j, %k] : memref<?x?x?xi8>
          %vi = arith.extsi %v : i8 to i64
          %r = arith.addi %acc3, %vi : i64
          scf.yield %r : i64
        }
        scf.yield %u : i64
      }
      scf.yield %t : i64
    }
    vector.print str "cube "
    vector.print %s3 : i64
    %a3, %b3, %c3m = call @arrays() : () -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
    call @add_swapped(%a3, %b3, %c3m, %c5, %c11) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index) -> ()
    %s4 = call @check(%c3m) : (memref<?x?xf32>) -> i64
    vector.print str "swapped "
    vector.print %s4 : i64
    %a4, %b4, %c4m = call @arrays() : () -> (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>)
    call @add_dims(%a4, %b4, %c4m, %c5, %c11) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index, index) -> ()
    %s5 = call @check(%c4m) : (memref<?x?xf32>) -> i64
    vector.print str "dims "
    vector.print %s5 : i64
    return
  }
}
