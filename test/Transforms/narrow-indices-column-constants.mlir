// threadbind-narrow-indices adds the constant of an access's last index
// (`j - 1`, `j + 2`) after the rest of its i32 offset, so that the NVPTX
// back end folds it into the access's immediate; the host's test leaves
// that much room below 2^31 - 1 (2147483647 - 2 here, the largest constant
// being 2, and 2 times a stride of 2 for the strided view). Checked on a
// 2-D stencil, a view whose last stride is 2, and rows that accesses share
// (their columns added after widening, the constant after them), in CPU emulation against the
// original at 0x0, 1x1, 3x3, 31x33 and 200x77; a mutant whose split
// constant -1 becomes 0 must change the sums.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu > %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-narrow-indices > %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" -threadbind-narrow-indices -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: sed -e 's/arith.constant -1 : i32/arith.constant 0 : i32/' %t.mlir > %t.mutant.mlir
// RUN: not diff -q %t.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// The copy sums each offset's variable parts, then adds the constant; the
// host tests the memrefs' extents against 2^31 - 1 less the room.
// CHECK-LABEL: func.func @stencil(
// CHECK:         arith.cmpi sle, %{{.*}}, %c2147483645
// CHECK:         gpu.launch
// CHECK:           %[[L:.*]] = arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK-NEXT:      %[[M:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[L]], %[[M]] overflow<nsw> : i32
// CHECK-NEXT:      arith.index_cast %[[S]] : i32 to index
// CHECK:           arith.constant 2 : i32
// CHECK-LABEL: func.func @strided(
// CHECK:         arith.cmpi sle, %{{.*}}, %c2147483645
// CHECK:         gpu.launch
// CHECK:           arith.constant 2 : index
// CHECK-LABEL: func.func @shared_rows(
// CHECK:         gpu.launch
// CHECK:           %[[O:.*]] = arith.addi %{{.*}}, %{{.*}} overflow<nsw> : index
// CHECK-NEXT:      %[[K:.*]] = arith.constant -1 : index
// CHECK-NEXT:      arith.addi %[[O]], %[[K]] overflow<nsw> : index

// OUT-COUNT-5: sums

// b[i][j] = a[i][j-1] + 2 a[i][j+2] + a[i-2][j] + a[i-1][j] + a[i+1][j]
// + a[i+2][j] on the interior (rows 2 to n - 3, columns 1 to m - 3): five
// rows of a, too many to share, so each offset is summed in i32.
func.func @stencil(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  %n2 = arith.subi %n, %c2 : index
  %m3 = arith.subi %m, %c3 : index
  scf.parallel (%i, %j) = (%c2, %c1) to (%n2, %m3) step (%c1, %c1) {
    %im2 = arith.subi %i, %c2 : index
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %ip2 = arith.addi %i, %c2 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c2 : index
    %w = memref.load %a[%i, %jm] : memref<?x?xf32>
    %e = memref.load %a[%i, %jp] : memref<?x?xf32>
    %n0 = memref.load %a[%im, %j] : memref<?x?xf32>
    %s0 = memref.load %a[%ip, %j] : memref<?x?xf32>
    %n1 = memref.load %a[%im2, %j] : memref<?x?xf32>
    %s1 = memref.load %a[%ip2, %j] : memref<?x?xf32>
    %e2 = arith.mulf %e, %two : f32
    %t0 = arith.addf %w, %e2 : f32
    %t1 = arith.addf %t0, %n0 : f32
    %t2 = arith.addf %t1, %s0 : f32
    %t3 = arith.addf %t2, %n1 : f32
    %t4 = arith.addf %t3, %s1 : f32
    memref.store %t4, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

// b[i][j] = v[i][j+1] - v[i][j], v every other column of a: the constant
// 1 of v's last index is 2 elements of a.
func.func @strided(%v: memref<?x?xf32, strided<[?, 2], offset: ?>>,
                   %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?x?xf32, strided<[?, 2], offset: ?>>
  %m = memref.dim %v, %c1 : memref<?x?xf32, strided<[?, 2], offset: ?>>
  %m1 = arith.subi %m, %c1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m1) step (%c1, %c1) {
    %jp = arith.addi %j, %c1 : index
    %x = memref.load %v[%i, %jp] : memref<?x?xf32, strided<[?, 2], offset: ?>>
    %y = memref.load %v[%i, %j] : memref<?x?xf32, strided<[?, 2], offset: ?>>
    %d = arith.subf %x, %y : f32
    memref.store %d, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

// b[i][j] = a[0][j-1] + a[0][j+1] + a[1][j] for j from 1 to m - 2: two rows
// of a that three accesses share.
func.func @shared_rows(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %b, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  %m1 = arith.subi %m, %c1 : index
  scf.parallel (%i, %j) = (%c0, %c1) to (%n, %m1) step (%c1, %c1) {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %x = memref.load %a[%c0, %jm] : memref<?x?xf32>
    %y = memref.load %a[%c0, %jp] : memref<?x?xf32>
    %z = memref.load %a[%c1, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    %f = arith.index_cast %i : index to i32
    %g = arith.sitofp %f : i32 to f32
    %u = arith.addf %t, %g : f32
    memref.store %u, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

// Sum of b[i][j] * (j mod 7 + i + 1) over b, in i64: every element is a
// whole number, so the sum does not depend on its order.
func.func @weighted_sum(%b: memref<?x?xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %b, %c0 : memref<?x?xf32>
  %m = memref.dim %b, %c1 : memref<?x?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> i64 {
    %t = scf.for %j = %c0 to %m step %c1 iter_args(%u = %acc) -> i64 {
      %v = memref.load %b[%i, %j] : memref<?x?xf32>
      %vi = arith.fptosi %v : f32 to i64
      %k0 = arith.remui %j, %c7 : index
      %k1 = arith.addi %k0, %i : index
      %k2 = arith.addi %k1, %c1 : index
      %ki = arith.index_cast %k2 : index to i64
      %p = arith.muli %vi, %ki : i64
      %q = arith.addi %u, %p : i64
      scf.yield %q : i64
    }
    scf.yield %t : i64
  }
  return %s : i64
}

// a[i][j] = (i * 31 + j * 7) mod 13, b and c zero; then each function
// under test, and the weighted sums of what they wrote.
func.func @run(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c31 = arith.constant 31 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc(%n, %m) : memref<?x?xf32>
  %b = memref.alloc(%n, %m) : memref<?x?xf32>
  %half = arith.divui %m, %c2 : index
  %c = memref.alloc(%n, %half) : memref<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %x = arith.muli %i, %c31 : index
      %y = arith.muli %j, %c7 : index
      %z = arith.addi %x, %y : index
      %r = arith.remui %z, %c13 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      memref.store %rf, %a[%i, %j] : memref<?x?xf32>
      memref.store %zero, %b[%i, %j] : memref<?x?xf32>
    }
    scf.for %j = %c0 to %half step %c1 {
      memref.store %zero, %c[%i, %j] : memref<?x?xf32>
    }
  }
  call @stencil(%a, %b) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %s0 = call @weighted_sum(%b) : (memref<?x?xf32>) -> i64
  %v = memref.subview %a[%c0, %c0] [%n, %half] [1, 2]
      : memref<?x?xf32> to memref<?x?xf32, strided<[?, 2], offset: ?>>
  call @strided(%v, %c)
      : (memref<?x?xf32, strided<[?, 2], offset: ?>>, memref<?x?xf32>) -> ()
  %s1 = call @weighted_sum(%c) : (memref<?x?xf32>) -> i64
  %rows = arith.cmpi uge, %n, %c2 : index
  %s2 = scf.if %rows -> i64 {
    func.call @shared_rows(%a, %b) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
    %s = func.call @weighted_sum(%b) : (memref<?x?xf32>) -> i64
    scf.yield %s : i64
  } else {
    %none = arith.constant 0 : i64
    scf.yield %none : i64
  }
  vector.print str "sums "
  vector.print %s0 : i64
  vector.print %s1 : i64
  vector.print %s2 : i64
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c77 = arith.constant 77 : index
  %c200 = arith.constant 200 : index
  call @run(%c0, %c0) : (index, index) -> ()
  call @run(%c1, %c1) : (index, index) -> ()
  call @run(%c3, %c3) : (index, index) -> ()
  call @run(%c31, %c33) : (index, index) -> ()
  call @run(%c200, %c77) : (index, index) -> ()
  return
}
