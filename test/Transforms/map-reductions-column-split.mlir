// Loops of column reductions (each output's reduction reads memory along
// the outputs) run, while there are fewer outputs than the device holds
// threads, on blocks of 32 outputs whose rows of threads split each
// reduction and combine through workgroup memory; with more, a thread an
// output. Checked in CPU emulation against the original at empty, one-
// element, ragged (31, 33, 1000x777) sizes and over a strided loop: a
// column sum, a bicg-style product accumulating into memory, and two
// results in one loop (a region combiner without an identity, i32, and a
// sum whose epilogue stores twice); under the default options (every run
// splits), one resident block of 64 threads (runs with more than 64
// outputs take a thread an output), and with the split turned off. A
// mutation of the combine (one row's parts read twice) must change the
// result.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s < %t.default.mlir
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=64" -threadbind-test-emulate-gpu-launch="resident-blocks=1" %lower_to_cpu | %run_cpu > %t.wide
// RUN: diff %t.ref %t.wide
// RUN: threadbind-opt %s -threadbind-map-to-gpu="reduction-split-columns=false" > %t.off.mlir
// RUN: FileCheck %s --check-prefix=OFF < %t.off.mlir
// RUN: threadbind-opt %t.off.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.off
// RUN: diff %t.ref %t.off
// RUN: sed -e 's/memref.load \(%arg[0-9]*\)\[%c7, \(%arg[0-9]*\)\] : memref<8x32xf32/memref.load \1[%c6, \2] : memref<8x32xf32/' %t.default.mlir > %t.mutant.mlir
// RUN: not diff -q %t.default.mlir %t.mutant.mlir
// RUN: threadbind-opt %t.mutant.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mutant
// RUN: not diff -q %t.ref %t.mutant

// REMARKS-COUNT-3: remark: column reduction mapped: while there are fewer outputs than the device holds threads, blocks of 32x8 threads, 8 threads folding each of 32 outputs (its loads coalesced across the outputs)

// CHECK-LABEL: func.func @column_sums(
// CHECK:         %[[RESIDENT:.*]] = call @threadbind_max_resident_blocks(%c256)
// CHECK:         %[[THREADS:.*]] = arith.muli %[[RESIDENT]], %c256
// CHECK:         %[[FEW:.*]] = arith.cmpi ult, %{{.*}}, %[[THREADS]]
// CHECK:         scf.if %[[FEW]] {
// CHECK:           gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c8, %{{.*}} = %c1) workgroup(%[[PART:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK:             scf.if
// CHECK:               scf.for
// CHECK:             memref.store %{{.*}}, %[[PART]]
// CHECK-NEXT:        gpu.barrier
// CHECK:             scf.if
// CHECK-COUNT-8:       memref.load %[[PART]]
// CHECK:               memref.store %{{.*}}, %arg1
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         workgroup
// CHECK-LABEL: func.func @bicg_s(
// CHECK-LABEL: func.func @sum_and_peak(
// CHECK:         workgroup(%{{.*}} : memref<8x32xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xf32, #gpu.address_space<workgroup>>)
// OFF-NOT:       workgroup(

// OUT-COUNT-5: column_sums
// OUT-COUNT-3: bicg_s
// OUT-COUNT-3: sum_and_peak

func.func @column_sums(%a: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    }
    memref.store %s, %out[%j] : memref<?xf32>
  }
  return
}

// s[j] += sum_i r[i] * A[i][j] over every other column from the first,
// the sum starting from s[j] as loaded.
func.func @bicg_s(%a: memref<?x?xf32>, %r: memref<?xf32>, %s: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%j) = (%c1) to (%n) step (%c2) {
    %init = memref.load %s[%j] : memref<?xf32>
    %t = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %init) -> f32 {
      %x = memref.load %r[%i] : memref<?xf32>
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %p = arith.mulf %x, %v : f32
      %u = arith.addf %acc, %p : f32
      scf.yield %u : f32
    }
    memref.store %t, %s[%j] : memref<?xf32>
  }
  return
}

// peak[j] = the largest |A[i][j]| (as i32, a combiner written as a
// compare and select, which has no identity to start from); twice[j] and
// sum[j] from the column's sum.
func.func @sum_and_peak(%a: memref<?x?xf32>, %peak: memref<?xi32>,
                        %sum: memref<?xf32>, %twice: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %low = arith.constant -7 : i32
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %r:2 = scf.parallel (%i) = (%c0) to (%m) step (%c1) init (%low, %zero) -> (i32, f32) {
      %v = memref.load %a[%i, %j] : memref<?x?xf32>
      %f = math.absf %v : f32
      %q = arith.fptosi %f : f32 to i32
      scf.reduce(%q, %v : i32, f32) {
      ^bb0(%x: i32, %y: i32):
        %gt = arith.cmpi sgt, %x, %y : i32
        %w = arith.select %gt, %x, %y : i32
        scf.reduce.return %w : i32
      }, {
      ^bb0(%x: f32, %y: f32):
        %w = arith.addf %x, %y : f32
        scf.reduce.return %w : f32
      }
    }
    memref.store %r#0, %peak[%j] : memref<?xi32>
    memref.store %r#1, %sum[%j] : memref<?xf32>
    %d = arith.mulf %r#1, %two : f32
    memref.store %d, %twice[%j] : memref<?xf32>
  }
  return
}

// a[i][j] = (i * 131 + j * 7) mod 1009 - 500: exact in f32 sums.
func.func @fill(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c131 = arith.constant 131 : index
  %c1009 = arith.constant 1009 : index
  %c500 = arith.constant 500 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = arith.muli %i, %c131 : index
      %y = arith.muli %j, %c7 : index
      %z = arith.addi %x, %y : index
      %r = arith.remui %z, %c1009 : index
      %s = arith.subi %r, %c500 : index
      %ri = arith.index_cast %s : index to i64
      %rf = arith.sitofp %ri : i64 to f32
      memref.store %rf, %a[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// sum of v[j] * (j + 1) in f64.
func.func @checksum(%v: memref<?xf32>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  %zero = arith.constant 0.0 : f64
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

// v[j] = j mod 5 - 2
func.func @fill1(%v: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  scf.for %j = %c0 to %n step %c1 {
    %r = arith.remui %j, %c5 : index
    %s = arith.subi %r, %c2 : index
    %ri = arith.index_cast %s : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    memref.store %rf, %v[%j] : memref<?xf32>
  }
  return
}

func.func @run_column_sums(%m: index, %n: index) {
  %a = memref.alloc(%m, %n) : memref<?x?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  call @fill(%a) : (memref<?x?xf32>) -> ()
  call @fill1(%out) : (memref<?xf32>) -> ()
  call @column_sums(%a, %out) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %s = call @checksum(%out) : (memref<?xf32>) -> f64
  vector.print str "column_sums "
  vector.print %s : f64
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}

func.func @run_bicg_s(%m: index, %n: index) {
  %a = memref.alloc(%m, %n) : memref<?x?xf32>
  %r = memref.alloc(%m) : memref<?xf32>
  %s = memref.alloc(%n) : memref<?xf32>
  call @fill(%a) : (memref<?x?xf32>) -> ()
  call @fill1(%r) : (memref<?xf32>) -> ()
  call @fill1(%s) : (memref<?xf32>) -> ()
  call @bicg_s(%a, %r, %s) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  %c = call @checksum(%s) : (memref<?xf32>) -> f64
  vector.print str "bicg_s "
  vector.print %c : f64
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %r : memref<?xf32>
  memref.dealloc %s : memref<?xf32>
  return
}

func.func @run_sum_and_peak(%m: index, %n: index) {
  %a = memref.alloc(%m, %n) : memref<?x?xf32>
  %peak = memref.alloc(%n) : memref<?xi32>
  %sum = memref.alloc(%n) : memref<?xf32>
  %twice = memref.alloc(%n) : memref<?xf32>
  %peakf = memref.alloc(%n) : memref<?xf32>
  call @fill(%a) : (memref<?x?xf32>) -> ()
  call @sum_and_peak(%a, %peak, %sum, %twice) : (memref<?x?xf32>, memref<?xi32>, memref<?xf32>, memref<?xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %p = memref.load %peak[%j] : memref<?xi32>
    %f = arith.sitofp %p : i32 to f32
    memref.store %f, %peakf[%j] : memref<?xf32>
  }
  %x = call @checksum(%peakf) : (memref<?xf32>) -> f64
  %y = call @checksum(%sum) : (memref<?xf32>) -> f64
  %z = call @checksum(%twice) : (memref<?xf32>) -> f64
  vector.print str "sum_and_peak "
  vector.print %x : f64
  vector.print %y : f64
  vector.print %z : f64
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %peak : memref<?xi32>
  memref.dealloc %sum : memref<?xf32>
  memref.dealloc %twice : memref<?xf32>
  memref.dealloc %peakf : memref<?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c31 = arith.constant 31 : index
  %c33 = arith.constant 33 : index
  %c70 = arith.constant 70 : index
  %c777 = arith.constant 777 : index
  %c1000 = arith.constant 1000 : index
  call @run_column_sums(%c0, %c5) : (index, index) -> ()
  call @run_column_sums(%c5, %c0) : (index, index) -> ()
  call @run_column_sums(%c1, %c1) : (index, index) -> ()
  call @run_column_sums(%c31, %c33) : (index, index) -> ()
  call @run_column_sums(%c1000, %c777) : (index, index) -> ()
  call @run_bicg_s(%c1, %c1) : (index, index) -> ()
  call @run_bicg_s(%c33, %c31) : (index, index) -> ()
  call @run_bicg_s(%c777, %c70) : (index, index) -> ()
  call @run_sum_and_peak(%c0, %c5) : (index, index) -> ()
  call @run_sum_and_peak(%c31, %c33) : (index, index) -> ()
  call @run_sum_and_peak(%c70, %c777) : (index, index) -> ()
  return
}
