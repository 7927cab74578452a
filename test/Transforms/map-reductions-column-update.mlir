// A column reduction whose output's body ends in a loop that updates its
// column with the result (Gram-Schmidt's projection: r = sum_i q[i] a[i][j],
// then a[i][j] -= q[i] r for every i) splits that loop over the block's
// rows of threads too: the leader leaves the result in workgroup memory, a
// second barrier, then thread (x, y) runs rows y, y + R, ... Checked in CPU
// emulation against the original at empty, one-element, ragged (31x33,
// 33x31) and 1000x777 sizes: the projection, an i32 loop with two results
// updating every other row from the second with a value computed from both,
// and two that stay a thread an output: an update whose iterations depend
// on each other (a running sum down the column), and one that uses a value
// loaded before the sum from where the sum is stored; under the default options
// (8 rows of threads), 64-thread blocks (2 rows), one resident 64-thread
// block (more than 64 outputs take a thread an output) and the split turned
// off. All values are small integers, so every order of the sums gives the
// same bits. A mutation of the shared loop's step (rows run twice) must
// change the result.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=64" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.two
// RUN: diff %t.ref %t.two
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=64" -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.one
// RUN: diff %t.ref %t.one
// RUN: threadbind-opt %s -threadbind-map-to-gpu="reduction-split-columns=false" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.off
// RUN: diff %t.ref %t.off
// RUN: sed -e 's/\(scf.for %arg[0-9]* = %arg[0-9]* to %[0-9a-z_]* step \)%c8 {/\1%c4 {/' %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// REMARKS-COUNT-2: remark: column reduction mapped: {{.*}}, then the rows of threads share the loop that follows the reduction;
// REMARKS-NOT: remark: column reduction mapped

// CHECK-LABEL: func.func @project(
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[PART:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK:             memref.store %[[R:.*]], %arg2
// CHECK:             memref.store %[[R]], %[[PART]][%c0, %[[TX:.*]]]
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK:             %[[SHARED:.*]] = memref.load %[[PART]][%c0, %[[TX]]]
// CHECK:             scf.for %{{.*}} = %[[TY:.*]] to %{{.*}} step %c8 {
// CHECK:               arith.mulf %{{.*}}, %[[SHARED]]
// CHECK:               memref.store %{{.*}}, %arg1
// CHECK-LABEL: func.func @odd_rows(
// CHECK:         workgroup(%{{.*}} : memref<8x32xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xi32, #gpu.address_space<workgroup>>)
// CHECK-LABEL: func.func @from_memory(
// CHECK-NOT:     workgroup(
// CHECK-LABEL: func.func @running(
// CHECK-NOT:     workgroup(

// OUT: project
// OUT: odd_rows
// OUT: from_memory
// OUT: running
// OUT: project
// OUT: odd_rows
// OUT: from_memory
// OUT: running
// OUT: project
// OUT: odd_rows
// OUT: from_memory
// OUT: running
// OUT: project
// OUT: odd_rows
// OUT: from_memory
// OUT: running
// OUT: project
// OUT: odd_rows
// OUT: from_memory
// OUT: running
// OUT: project
// OUT: odd_rows
// OUT: from_memory
// OUT: running

// r[j] = sum_i q[i] a[i][j]; a[i][j] -= q[i] r[j] for every i.
func.func @project(%q: memref<?xf32>, %a: memref<?x?xf32>, %r: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %x = memref.load %q[%i] : memref<?xf32>
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %v : f32
      %t = arith.addf %acc, %p : f32
      scf.yield %t : f32
    }
    memref.store %s, %r[%j] : memref<?xf32>
    scf.for %i = %c0 to %m step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %x = memref.load %q[%i] : memref<?xf32>
      %p = arith.mulf %x, %s : f32
      %d = arith.subf %v, %p : f32
      memref.store %d, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// With the column's sum and largest value: lo[j] = sum; every other row
// from the second gets max - sum added.
func.func @odd_rows(%a: memref<?x?xi32>, %lo: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %least = arith.constant -2147483648 : i32
  %m = memref.dim %a, %c0 : memref<?x?xi32>
  %n = memref.dim %a, %c1 : memref<?x?xi32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %r:2 = scf.parallel (%i) = (%c0) to (%m) step (%c1) init (%zero, %least) -> (i32, i32) {
      %v = memref.load %a[%i, %j] : memref<?x?xi32>
      scf.reduce(%v, %v : i32, i32) {
      ^bb0(%x: i32, %y: i32):
        %w = arith.addi %x, %y : i32
        scf.reduce.return %w : i32
      }, {
      ^bb0(%x: i32, %y: i32):
        %w = arith.maxsi %x, %y : i32
        scf.reduce.return %w : i32
      }
    }
    memref.store %r#0, %lo[%j] : memref<?xi32>
    %d = arith.subi %r#1, %r#0 : i32
    scf.parallel (%i) = (%c1) to (%m) step (%c2) {
      %v = memref.load %a[%i, %j] : memref<?x?xi32>
      %w = arith.addi %v, %d : i32
      memref.store %w, %a[%i, %j] : memref<?x?xi32>
    }
  }
  return
}

// r[j] += sum_i a[i][j], the sum starting from r[j] as loaded; then every
// row gets the loaded value added. The update uses a load made before the
// sum, which the leader's store changes: threads making it again would
// read the new r[j], so the column is not split.
func.func @from_memory(%a: memref<?x?xf32>, %r: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %init = memref.load %r[%j] : memref<?xf32>
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %init) -> f32 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    }
    memref.store %s, %r[%j] : memref<?xf32>
    scf.for %i = %c0 to %m step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %w = arith.addf %v, %init : f32
      memref.store %w, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// r[j] = sum_i a[i][j]; then a running sum down the column, which carries
// from one row to the next: the loop stays sequential.
func.func @running(%a: memref<?x?xf32>, %r: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %m1 = arith.subi %m, %c1 : index
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    }
    memref.store %s, %r[%j] : memref<?xf32>
    scf.for %i = %c0 to %m1 step %c1 {
      %ip = arith.addi %i, %c1 : index
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %w = memref.load %a[%ip, %j] : memref<?x?xf32>
      %u = arith.addf %v, %w : f32
      memref.store %u, %a[%ip, %j] : memref<?x?xf32>
    }
  }
  return
}

// a[i][j] = (i * 131 + j * 7) mod 11 - 5.
func.func @fill(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c131 = arith.constant 131 : index
  %c11 = arith.constant 11 : index
  %c5 = arith.constant 5 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = arith.muli %i, %c131 : index
      %y = arith.muli %j, %c7 : index
      %z = arith.addi %x, %y : index
      %r = arith.remui %z, %c11 : index
      %s = arith.subi %r, %c5 : index
      %ri = arith.index_cast %s : index to i64
      %rf = arith.sitofp %ri : i64 to f32
      memref.store %rf, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// v[i] = i mod 3 - 1
func.func @fill1(%v: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.remui %i, %c3 : index
    %s = arith.subi %r, %c1 : index
    %ri = arith.index_cast %s : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    memref.store %rf, %v[%i] : memref<?xf32>
  }
  return
}

// sum of a[i][j] * ((i * 3 + j) mod 7 + 1), in f64 (an integer: printed
// as one, every digit)
func.func @checksum2(%a: memref<?x?xf32>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%b = %acc) -> f64 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %d = arith.extf %v : f32 to f64
      %x = arith.muli %i, %c3 : index
      %y = arith.addi %x, %j : index
      %r = arith.remui %y, %c7 : index
      %k = arith.addi %r, %c1 : index
      %ki = arith.index_cast %k : index to i64
      %kf = arith.sitofp %ki : i64 to f64
      %p = arith.mulf %d, %kf : f64
      %u = arith.addf %b, %p : f64
      scf.yield %u : f64
    }
    scf.yield %t : f64
  }
  return %s : f64
}

// sum of v[j] * (j + 1), in f64
func.func @checksum1(%v: memref<?xf32>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %v, %c0 : memref<?xf32>
  %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %v[%j] : memref<?xf32>
    %d = arith.extf %x : f32 to f64
    %k = arith.addi %j, %c1 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %p = arith.mulf %d, %kf : f64
    %t = arith.addf %acc, %p : f64
    scf.yield %t : f64
  }
  return %s : f64
}

func.func @run(%m: index, %n: index) {
  %q = memref.alloc(%m) : memref<?xf32>
  %a = memref.alloc(%m, %n) : memref<?x?xf32>
  %r = memref.alloc(%n) : memref<?xf32>
  call @fill1(%q) : (memref<?xf32>) -> ()
  call @fill(%a) : (memref<?x?xf32>) -> ()
  call @project(%q, %a, %r) : (memref<?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
  %s1 = call @checksum2(%a) : (memref<?x?xf32>) -> f64
  %s2 = call @checksum1(%r) : (memref<?xf32>) -> f64
  vector.print str "project "
  %is1 = arith.fptosi %s1 : f64 to i64
  vector.print %is1 : i64
  %is2 = arith.fptosi %s2 : f64 to i64
  vector.print %is2 : i64
  // The same values as i32 for odd_rows.
  %ai = memref.alloc(%m, %n) : memref<?x?xi32>
  %lo = memref.alloc(%n) : memref<?xi32>
  call @fill(%a) : (memref<?x?xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %w = arith.fptosi %v : f32 to i32
      memref.store %w, %ai[%i, %j] : memref<?x?xi32>
    }
  }
  call @odd_rows(%ai, %lo) : (memref<?x?xi32>, memref<?xi32>) -> ()
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %w = memref.load %ai[%i, %j] : memref<?x?xi32>
      %v = arith.sitofp %w : i32 to f32
      memref.store %v, %a[%i, %j] : memref<?x?xf32>
    }
  }
  scf.for %j = %c0 to %n step %c1 {
    %w = memref.load %lo[%j] : memref<?xi32>
    %v = arith.sitofp %w : i32 to f32
    memref.store %v, %r[%j] : memref<?xf32>
  }
  %s3 = call @checksum2(%a) : (memref<?x?xf32>) -> f64
  %s4 = call @checksum1(%r) : (memref<?xf32>) -> f64
  vector.print str "odd_rows "
  %is3 = arith.fptosi %s3 : f64 to i64
  vector.print %is3 : i64
  %is4 = arith.fptosi %s4 : f64 to i64
  vector.print %is4 : i64
  call @fill(%a) : (memref<?x?xf32>) -> ()
  call @fill1(%r) : (memref<?xf32>) -> ()
  call @from_memory(%a, %r) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %s7 = call @checksum2(%a) : (memref<?x?xf32>) -> f64
  %s8 = call @checksum1(%r) : (memref<?xf32>) -> f64
  %is7 = arith.fptosi %s7 : f64 to i64
  %is8 = arith.fptosi %s8 : f64 to i64
  vector.print str "from_memory "
  vector.print %is7 : i64
  vector.print %is8 : i64
  call @fill(%a) : (memref<?x?xf32>) -> ()
  call @running(%a, %r) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %s5 = call @checksum2(%a) : (memref<?x?xf32>) -> f64
  %s6 = call @checksum1(%r) : (memref<?xf32>) -> f64
  vector.print str "running "
  %is5 = arith.fptosi %s5 : f64 to i64
  vector.print %is5 : i64
  %is6 = arith.fptosi %s6 : f64 to i64
  vector.print %is6 : i64
  memref.dealloc %q : memref<?xf32>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %r : memref<?xf32>
  memref.dealloc %ai : memref<?x?xi32>
  memref.dealloc %lo : memref<?xi32>
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
  call @run(%c0, %c5) : (index, index) -> ()
  call @run(%c7, %c0) : (index, index) -> ()
  call @run(%c1, %c1) : (index, index) -> ()
  call @run(%c31, %c33) : (index, index) -> ()
  call @run(%c33, %c31) : (index, index) -> ()
  call @run(%c1000, %c777) : (index, index) -> ()
  return
}
