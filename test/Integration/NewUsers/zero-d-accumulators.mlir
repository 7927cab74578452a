// 0-d memref accumulators; a parallel loop with two reductions of different types (f32 sum, i32 max);
// linalg.dot and a full linalg.generic reduction into memref<f32>; affine.parallel with two reductions.
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

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @stats(%x: memref<?x?xf32>, %k: memref<?x?xi32>, %acc: memref<f32>, %mx: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  %zf = arith.constant 0.0 : f32
  %mi = arith.constant -2147483648 : i32
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) init (%zf, %mi) -> (f32, i32) {
    %v = memref.load %x[%i, %j] : memref<?x?xf32>
    %kv = memref.load %k[%i, %j] : memref<?x?xi32>
    scf.reduce(%v, %kv : f32, i32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: i32, %b: i32):
      %mm = arith.maxsi %a, %b : i32
      scf.reduce.return %mm : i32
    }
  }
  %old = memref.load %acc[] : memref<f32>
  %new = arith.addf %old, %r#0 : f32
  memref.store %new, %acc[] : memref<f32>
  %oldm = memref.load %mx[] : memref<i32>
  %newm = arith.maxsi %oldm, %r#1 : i32
  memref.store %newm, %mx[] : memref<i32>
  return
}

func.func @dot0d(%x: memref<?xf32>, %y: memref<?xf32>, %acc: memref<f32>) {
  linalg.dot ins(%x, %y : memref<?xf32>, memref<?xf32>) outs(%acc : memref<f32>)
  return
}

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>
func.func @absmax0d(%x: memref<?x?xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [#id2, #none], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %b = math.absf %a : f32
    %m = arith.maximumf %b, %o : f32
    linalg.yield %m : f32
  }
  return
}

// scale every element by the value held in a 0-d memref
func.func @scale_by0d(%x: memref<?x?xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %sv = memref.load %s[] : memref<f32>
    %v = memref.load %x[%i, %j] : memref<?x?xf32>
    %w = arith.mulf %v, %sv : f32
    memref.store %w, %x[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

func.func @aff2(%x: memref<?xf32>, %k: memref<?xi32>) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %r:2 = affine.parallel (%i) = (0) to (symbol(%n)) reduce ("maximumf", "addi") -> (f32, i32) {
    %v = affine.load %x[%i] : memref<?xf32>
    %kv = affine.load %k[%i] : memref<?xi32>
    affine.yield %v, %kv : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %x = memref.alloc(%c37, %c29) : memref<?x?xf32>
  %k = memref.alloc(%c37, %c29) : memref<?x?xi32>
  scf.for %i = %c0 to %c37 step %c1 {
    scf.for %j = %c0 to %c29 step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %three = arith.constant 3.0 : f32
      %v = arith.subf %rf, %three : f32
      memref.store %v, %x[%i, %j] : memref<?x?xf32>
      %p = arith.muli %i, %j : index
      %q = arith.remui %p, %c11 : index
      %qi = arith.index_cast %q : index to i32
      %neg = arith.constant -1000 : i32
      %kv = arith.addi %qi, %neg : i32
      memref.store %kv, %k[%i, %j] : memref<?x?xi32>
    }
  }
  %acc = memref.alloc() : memref<f32>
  %mx = memref.alloc() : memref<i32>
  %ten = arith.constant 10.5 : f32
  %m5 = arith.constant -5000 : i32
  memref.store %ten, %acc[] : memref<f32>
  memref.store %m5, %mx[] : memref<i32>
  call @stats(%x, %k, %acc, %mx) : (memref<?x?xf32>, memref<?x?xi32>, memref<f32>, memref<i32>) -> ()
  // second call accumulates again; then a 0-extent call must not change anything
  call @stats(%x, %k, %acc, %mx) : (memref<?x?xf32>, memref<?x?xi32>, memref<f32>, memref<i32>) -> ()
  %x0c = memref.alloc(%c0, %c29) : memref<?x?xf32>
  %k0c = memref.alloc(%c0, %c29) : memref<?x?xi32>
  call @stats(%x0c, %k0c, %acc, %mx) : (memref<?x?xf32>, memref<?x?xi32>, memref<f32>, memref<i32>) -> ()
  %accu = memref.cast %acc : memref<f32> to memref<*xf32>
  call @printMemrefF32(%accu) : (memref<*xf32>) -> ()
  %mxu = memref.cast %mx : memref<i32> to memref<*xi32>
  call @printMemrefI32(%mxu) : (memref<*xi32>) -> ()

  // dot into 0-d (accumulates onto 1.0)
  %dv = memref.alloc() : memref<f32>
  %one = arith.constant 1.0 : f32
  memref.store %one, %dv[] : memref<f32>
  %row = memref.alloc(%c37) : memref<?xf32>
  %row2 = memref.alloc(%c37) : memref<?xf32>
  scf.for %i = %c0 to %c37 step %c1 {
    %v = memref.load %x[%i, %c3] : memref<?x?xf32>
    memref.store %v, %row[%i] : memref<?xf32>
    %w = memref.load %x[%i, %c7] : memref<?x?xf32>
    memref.store %w, %row2[%i] : memref<?xf32>
  }
  call @dot0d(%row, %row2, %dv) : (memref<?xf32>, memref<?xf32>, memref<f32>) -> ()
  %dvu = memref.cast %dv : memref<f32> to memref<*xf32>
  call @printMemrefF32(%dvu) : (memref<*xf32>) -> ()

  // full abs-max into 0-d, then scale x by it
  %am = memref.alloc() : memref<f32>
  %zf = arith.constant 0.0 : f32
  memref.store %zf, %am[] : memref<f32>
  call @absmax0d(%x, %am) : (memref<?x?xf32>, memref<f32>) -> ()
  %amu = memref.cast %am : memref<f32> to memref<*xf32>
  call @printMemrefF32(%amu) : (memref<*xf32>) -> ()
  call @scale_by0d(%x, %am) : (memref<?x?xf32>, memref<f32>) -> ()
  %xu = memref.cast %x : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%xu) : (memref<*xf32>) -> ()

  // affine.parallel with two reductions, on 37 and on 1 element
  %ak = memref.alloc(%c37) : memref<?xi32>
  scf.for %i = %c0 to %c37 step %c1 {
    %q = arith.muli %i, %c7 : index
    %r = arith.remui %q, %c29 : index
    %ri = arith.index_cast %r : index to i32
    %neg = arith.constant -20 : i32
    %v = arith.addi %ri, %neg : i32
    memref.store %v, %ak[%i] : memref<?xi32>
  }
  %s1, %m1 = call @aff2(%row, %ak) : (memref<?xf32>, memref<?xi32>) -> (f32, i32)
  vector.print %s1 : f32
  vector.print %m1 : i32
  %row1 = memref.alloc(%c1) : memref<?xf32>
  %ak1 = memref.alloc(%c1) : memref<?xi32>
  %v7 = arith.constant 7.25 : f32
  %i7 = arith.constant -7 : i32
  memref.store %v7, %row1[%c0] : memref<?xf32>
  memref.store %i7, %ak1[%c0] : memref<?xi32>
  %s2, %m2 = call @aff2(%row1, %ak1) : (memref<?xf32>, memref<?xi32>) -> (f32, i32)
  vector.print %s2 : f32
  vector.print %m2 : i32
  return
}
