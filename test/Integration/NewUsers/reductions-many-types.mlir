// Reductions over several element types and combiners with NON-identity init values, on arrays big
// enough for several blocks: f32 max over negatives (init -0.5), f32 min, i8 wrapping add, i16 mul,
// i64 minsi, i32 andi/ori, f16 maximumf, f64 sum with init 100.
// From the new-user rounds of 2026-11-29: a program in a form the other
// tests did not cover, written as someone new to ThreadBind writes it.
// Checked in CPU emulation against the original, as threadbind-compile
// binds it under the defaults, a cover grid of 64-thread blocks with split
// tails, and a 3-D block shape of at most 3 blocks with kept tails and
// unrolled widening; its kernels assembled by ptxas.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-linalg-to-loops %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// RUN: threadbind-compile --emit=mlir %s -o %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-compile --emit=mlir --grid-policy=cover --threads-per-block=64 --tail=split %s -o %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile --emit=mlir --block-shape=8,4,2 --max-blocks=3 --tail=keep --widen-unroll=2 %s -o %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: %if ptxas %{ threadbind-compile --emit=cubin %s -o %t.cubin %}
// REF: {{[0-9]}}

func.func @red_all(%f: memref<?xf32>, %b: memref<?xi8>, %w: memref<?xi16>, %l: memref<?xi64>, %h: memref<?xf16>, %d: memref<?xf64>)
    -> (f32, f32, i8, i16, i64, i32, i32, f16, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %f, %c0 : memref<?xf32>
  %i0 = arith.constant -0.5 : f32
  %i1 = arith.constant 1000.0 : f32
  %i2 = arith.constant 7 : i8
  %i3 = arith.constant 3 : i16
  %i4 = arith.constant 123456789012 : i64
  %i5 = arith.constant -1 : i32
  %i6 = arith.constant 64 : i32
  %i7 = arith.constant -100.0 : f16
  %i8 = arith.constant 100.0 : f64
  %r:9 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7, %i8)
      -> (f32, f32, i8, i16, i64, i32, i32, f16, f64) {
    %fv = memref.load %f[%i] : memref<?xf32>
    %bv = memref.load %b[%i] : memref<?xi8>
    %wv = memref.load %w[%i] : memref<?xi16>
    %lv = memref.load %l[%i] : memref<?xi64>
    %hv = memref.load %h[%i] : memref<?xf16>
    %dv = memref.load %d[%i] : memref<?xf64>
    %ii = arith.index_cast %i : index to i32
    %mask = arith.constant 1023 : i32
    %a1 = arith.ori %ii, %mask : i32
    %bit = arith.constant 7 : i32
    %a2 = arith.andi %ii, %bit : i32
    %one = arith.constant 1 : i32
    %a3 = arith.shli %one, %a2 : i32
    scf.reduce(%fv, %fv, %bv, %wv, %lv, %a1, %a3, %hv, %dv : f32, f32, i8, i16, i64, i32, i32, f16, f64) {
    ^bb0(%x: f32, %y: f32):
      %m = arith.maximumf %x, %y : f32
      scf.reduce.return %m : f32
    }, {
    ^bb0(%x: f32, %y: f32):
      %m = arith.minimumf %x, %y : f32
      scf.reduce.return %m : f32
    }, {
    ^bb0(%x: i8, %y: i8):
      %m = arith.addi %x, %y : i8
      scf.reduce.return %m : i8
    }, {
    ^bb0(%x: i16, %y: i16):
      %m = arith.muli %x, %y : i16
      scf.reduce.return %m : i16
    }, {
    ^bb0(%x: i64, %y: i64):
      %m = arith.minsi %x, %y : i64
      scf.reduce.return %m : i64
    }, {
    ^bb0(%x: i32, %y: i32):
      %m = arith.andi %x, %y : i32
      scf.reduce.return %m : i32
    }, {
    ^bb0(%x: i32, %y: i32):
      %m = arith.ori %x, %y : i32
      scf.reduce.return %m : i32
    }, {
    ^bb0(%x: f16, %y: f16):
      %m = arith.maximumf %x, %y : f16
      scf.reduce.return %m : f16
    }, {
    ^bb0(%x: f64, %y: f64):
      %m = arith.addf %x, %y : f64
      scf.reduce.return %m : f64
    }
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8 : f32, f32, i8, i16, i64, i32, i32, f16, f64
}

func.func @run(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %f = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xi8>
  %w = memref.alloc(%n) : memref<?xi16>
  %l = memref.alloc(%n) : memref<?xi64>
  %h = memref.alloc(%n) : memref<?xf16>
  %d = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c7 : index
    %r = arith.remui %a, %c13 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %k = arith.constant -20.0 : f32
    %fv = arith.addf %rf, %k : f32
    memref.store %fv, %f[%i] : memref<?xf32>
    %bv = arith.trunci %ri : i32 to i8
    %b2 = arith.muli %bv, %bv : i8
    memref.store %b2, %b[%i] : memref<?xi8>
    %r5 = arith.remui %i, %c5 : index
    %r5i = arith.index_cast %r5 : index to i16
    %one16 = arith.constant 1 : i16
    %t16 = arith.constant 2 : i16
    %is0 = arith.cmpi eq, %r5i, %t16 : i16
    %w3 = arith.constant 3 : i16
    %wv = arith.select %is0, %w3, %one16 : i16
    memref.store %wv, %w[%i] : memref<?xi16>
    %ii = arith.index_cast %i : index to i64
    %big = arith.constant 99999999999 : i64
    %lv = arith.subi %big, %ii : i64
    %sq = arith.muli %ii, %ii : i64
    %lv2 = arith.subi %lv, %sq : i64
    memref.store %lv2, %l[%i] : memref<?xi64>
    %hf = arith.sitofp %ri : i32 to f16
    %h5 = arith.constant -150.0 : f16
    %hv = arith.addf %hf, %h5 : f16
    memref.store %hv, %h[%i] : memref<?xf16>
    %df = arith.sitofp %ri : i32 to f64
    %q = arith.constant 0.25 : f64
    %dv = arith.mulf %df, %q : f64
    memref.store %dv, %d[%i] : memref<?xf64>
  }
  %r:9 = call @red_all(%f, %b, %w, %l, %h, %d) : (memref<?xf32>, memref<?xi8>, memref<?xi16>, memref<?xi64>, memref<?xf16>, memref<?xf64>) -> (f32, f32, i8, i16, i64, i32, i32, f16, f64)
  vector.print %r#0 : f32
  vector.print %r#1 : f32
  %e2 = arith.extsi %r#2 : i8 to i32
  vector.print %e2 : i32
  %e3 = arith.extsi %r#3 : i16 to i32
  vector.print %e3 : i32
  vector.print %r#4 : i64
  vector.print %r#5 : i32
  vector.print %r#6 : i32
  %e7 = arith.extf %r#7 : f16 to f32
  vector.print %e7 : f32
  vector.print %r#8 : f64
  return
}

func.func @main() {
  %n1 = arith.constant 70001 : index
  call @run(%n1) : (index) -> ()
  %n2 = arith.constant 1 : index
  call @run(%n2) : (index) -> ()
  %n3 = arith.constant 0 : index
  call @run(%n3) : (index) -> ()
  %n4 = arith.constant 4099 : index
  call @run(%n4) : (index) -> ()
  return
}
