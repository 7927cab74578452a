// Strided views: kernels on memref<?x?xf32, strided<[?, ?], offset: ?>> fed with subviews (inner stride 2,
// interleaved views of one allocation, a rank-reduced column), and collapse/expand_shape in host code between kernels.
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

func.func @axpb(%in: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32, strided<[?, ?], offset: ?>>, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %m = memref.dim %in, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %w = arith.mulf %v, %a : f32
    %ii = arith.index_cast %i : index to i32
    %if = arith.sitofp %ii : i32 to f32
    %r = arith.addf %w, %if : f32
    memref.store %r, %out[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    scf.reduce
  }
  return
}

func.func @colscale(%col: memref<?xf32, strided<[?], offset: ?>>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %col, %c0 : memref<?xf32, strided<[?], offset: ?>>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %col[%i] : memref<?xf32, strided<[?], offset: ?>>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %col[%i] : memref<?xf32, strided<[?], offset: ?>>
    scf.reduce
  }
  return
}

// writes t[b, i, j] = b*100 + i*10 + j
func.func @gen3(%t: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = memref.dim %t, %c0 : memref<?x?x?xf32>
  %d1 = memref.dim %t, %c1 : memref<?x?x?xf32>
  %d2 = memref.dim %t, %c2 : memref<?x?x?xf32>
  scf.parallel (%b, %i, %j) = (%c0, %c0, %c0) to (%d0, %d1, %d2) step (%c1, %c1, %c1) {
    %c100 = arith.constant 100 : index
    %c10 = arith.constant 10 : index
    %x = arith.muli %b, %c100 : index
    %y = arith.muli %i, %c10 : index
    %s = arith.addi %x, %y : index
    %t2 = arith.addi %s, %j : index
    %ti = arith.index_cast %t2 : index to i32
    %tf = arith.sitofp %ti : i32 to f32
    memref.store %tf, %t[%b, %i, %j] : memref<?x?x?xf32>
    scf.reduce
  }
  return
}

// row sums of a 2-D memref into a 1-D one
func.func @rowsum(%m: memref<?x?xf32>, %o: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?x?xf32>
  %k = memref.dim %m, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %z = arith.constant 0.0 : f32
    %s = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %z) -> f32 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    memref.store %s, %o[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c14 = arith.constant 14 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %big = memref.alloc(%c37, %c29) : memref<?x?xf32>
  %dst = memref.alloc(%c37, %c29) : memref<?x?xf32>
  scf.for %i = %c0 to %c37 step %c1 {
    scf.for %j = %c0 to %c29 step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      memref.store %rf, %big[%i, %j] : memref<?x?xf32>
      %m1 = arith.constant -1.0 : f32
      memref.store %m1, %dst[%i, %j] : memref<?x?xf32>
    }
  }
  // in: rows 2..12, cols 3,5,..,15 (stride 2); out: rows 1..11, cols 1..7 of dst
  %in0 = memref.subview %big[2, 3] [%c11, %c7] [1, 2] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 2], offset: ?>>
  %in = memref.cast %in0 : memref<?x?xf32, strided<[?, 2], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %out = memref.subview %dst[1, 1] [%c11, %c7] [%c1, %c1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %a2 = arith.constant 2.0 : f32
  call @axpb(%in, %out, %a2) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32) -> ()
  // interleaved: even columns of big (0,2,..,26) -> odd columns of big (1,3,..,27), rows 20..36 with row stride 2 (20,22,...,36)
  %c9 = arith.constant 9 : index
  %ev = memref.subview %big[20, 0] [%c9, %c14] [%c2, %c2] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %od = memref.subview %big[20, 1] [%c9, %c14] [%c2, %c2] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %am = arith.constant -3.0 : f32
  call @axpb(%ev, %od, %am) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32) -> ()
  // a column of dst (column 5), rank-reduced
  %col = memref.subview %dst[%c0, %c5] [%c37, 1] [%c1, %c1] : memref<?x?xf32> to memref<?xf32, strided<[?], offset: ?>>
  %s10 = arith.constant 10.0 : f32
  call @colscale(%col, %s10) : (memref<?xf32, strided<[?], offset: ?>>, f32) -> ()
  // a 1x1 view and a 0x7 view
  %one = memref.subview %dst[36, 28] [%c1, %c1] [%c1, %c1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  call @axpb(%one, %one, %a2) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32) -> ()
  %empty = memref.subview %dst[5, 5] [%c0, %c7] [%c1, %c1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  call @axpb(%empty, %empty, %a2) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32) -> ()
  %bigu = memref.cast %big : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%bigu) : (memref<*xf32>) -> ()
  %dstu = memref.cast %dst : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%dstu) : (memref<*xf32>) -> ()

  // collapse/expand between kernels: 3x5x7 -> 15x7 -> row sums (15) -> 3x5
  %t = memref.alloc(%c3, %c5, %c7) : memref<?x?x?xf32>
  call @gen3(%t) : (memref<?x?x?xf32>) -> ()
  %t2 = memref.collapse_shape %t [[0, 1], [2]] : memref<?x?x?xf32> into memref<?x?xf32>
  %c15 = arith.constant 15 : index
  %rs = memref.alloc(%c15) : memref<?xf32>
  call @rowsum(%t2, %rs) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %rs2 = memref.expand_shape %rs [[0, 1]] output_shape [%c3, %c5] : memref<?xf32> into memref<?x?xf32>
  %rs2u = memref.cast %rs2 : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%rs2u) : (memref<*xf32>) -> ()
  // expand the collapsed one back differently: 15x7 viewed as 5x3x7, then generate into it again and print flat
  %t3 = memref.expand_shape %t2 [[0, 1], [2]] output_shape [%c5, %c3, %c7] : memref<?x?xf32> into memref<?x?x?xf32>
  call @gen3(%t3) : (memref<?x?x?xf32>) -> ()
  call @rowsum(%t2, %rs) : (memref<?x?xf32>, memref<?xf32>) -> ()
  %rsu = memref.cast %rs : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%rsu) : (memref<*xf32>) -> ()
  return
}
