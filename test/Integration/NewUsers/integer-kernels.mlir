// i8 threshold/clamp image kernel, i16 wrapping 5-point stencil, i64 hash + xor-fold reduction, i8 unsigned max reduction.
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

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)

// out = clamp(2*x - 50, 0, 255) if x >= thr else 0   (x unsigned 8-bit)
func.func @thresh_clamp(%in: memref<?x?xi8>, %out: memref<?x?xi8>, %thr: i8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %in, %c0 : memref<?x?xi8>
  %w = memref.dim %in, %c1 : memref<?x?xi8>
  %thr32 = arith.extui %thr : i8 to i32
  scf.parallel (%i, %j) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xi8>
    %x32 = arith.extui %x : i8 to i32
    %two = arith.constant 2 : i32
    %fifty = arith.constant 50 : i32
    %zero = arith.constant 0 : i32
    %max = arith.constant 255 : i32
    %d = arith.muli %x32, %two : i32
    %e = arith.subi %d, %fifty : i32
    %lo = arith.cmpi slt, %e, %zero : i32
    %e1 = arith.select %lo, %zero, %e : i32
    %hi = arith.cmpi sgt, %e1, %max : i32
    %e2 = arith.select %hi, %max, %e1 : i32
    %ge = arith.cmpi uge, %x32, %thr32 : i32
    %r = arith.select %ge, %e2, %zero : i32
    %r8 = arith.trunci %r : i32 to i8
    memref.store %r8, %out[%i, %j] : memref<?x?xi8>
    scf.reduce
  }
  return
}

// i16 Laplacian on the interior, wrapping arithmetic; border copied.
func.func @lap16(%in: memref<?x?xi16>, %out: memref<?x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %in, %c0 : memref<?x?xi16>
  %w = memref.dim %in, %c1 : memref<?x?xi16>
  %hm = arith.subi %h, %c1 : index
  %wm = arith.subi %w, %c1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %c = memref.load %in[%i, %j] : memref<?x?xi16>
    %t0 = arith.cmpi eq, %i, %c0 : index
    %t1 = arith.cmpi eq, %j, %c0 : index
    %t2 = arith.cmpi eq, %i, %hm : index
    %t3 = arith.cmpi eq, %j, %wm : index
    %b0 = arith.ori %t0, %t1 : i1
    %b1 = arith.ori %t2, %t3 : i1
    %border = arith.ori %b0, %b1 : i1
    scf.if %border {
      memref.store %c, %out[%i, %j] : memref<?x?xi16>
    } else {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %n = memref.load %in[%im, %j] : memref<?x?xi16>
      %s = memref.load %in[%ip, %j] : memref<?x?xi16>
      %we = memref.load %in[%i, %jm] : memref<?x?xi16>
      %e = memref.load %in[%i, %jp] : memref<?x?xi16>
      %four = arith.constant 4 : i16
      %c4 = arith.muli %c, %four : i16
      %a0 = arith.addi %n, %s : i16
      %a1 = arith.addi %we, %e : i16
      %a2 = arith.addi %a0, %a1 : i16
      %r = arith.subi %a2, %c4 : i16
      memref.store %r, %out[%i, %j] : memref<?x?xi16>
    }
    scf.reduce
  }
  return
}

// splitmix-like hash per element; returns xor of all hashes.
func.func @hash64(%in: memref<?xi64>, %out: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xi64>
  %zero = arith.constant 0 : i64
  %res = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> i64 {
    %x = memref.load %in[%i] : memref<?xi64>
    %k1 = arith.constant -7046029254386353131 : i64
    %k2 = arith.constant -4658895280553007687 : i64
    %s31 = arith.constant 31 : i64
    %s7 = arith.constant 7 : i64
    %s27 = arith.constant 27 : i64
    %h0 = arith.muli %x, %k1 : i64
    %r0 = arith.shrui %h0, %s31 : i64
    %h1 = arith.xori %h0, %r0 : i64
    %l0 = arith.shli %h1, %s7 : i64
    %h2 = arith.xori %h1, %l0 : i64
    %h3 = arith.muli %h2, %k2 : i64
    %r1 = arith.shrsi %h3, %s27 : i64
    %h4 = arith.xori %h3, %r1 : i64
    memref.store %h4, %out[%i] : memref<?xi64>
    scf.reduce(%h4 : i64) {
    ^bb0(%a: i64, %b: i64):
      %x2 = arith.xori %a, %b : i64
      scf.reduce.return %x2 : i64
    }
  }
  return %res : i64
}

func.func @umax8(%in: memref<?x?xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %in, %c0 : memref<?x?xi8>
  %w = memref.dim %in, %c1 : memref<?x?xi8>
  %zero = arith.constant 0 : i8
  %res = scf.parallel (%i, %j) = (%c0, %c0) to (%h, %w) step (%c1, %c1) init (%zero) -> i8 {
    %x = memref.load %in[%i, %j] : memref<?x?xi8>
    scf.reduce(%x : i8) {
    ^bb0(%a: i8, %b: i8):
      %m = arith.maxui %a, %b : i8
      scf.reduce.return %m : i8
    }
  }
  return %res : i8
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c13 = arith.constant 13 : index
  %c37 = arith.constant 37 : index
  %c29 = arith.constant 29 : index
  %c17 = arith.constant 17 : index
  %c251 = arith.constant 251 : index
  %H = arith.constant 13 : index
  %W = arith.constant 17 : index

  // i8 image 13x17, values (i*37 + j*29) mod 251 as unsigned bytes (many > 127)
  %img = memref.alloc(%H, %W) : memref<?x?xi8>
  %img2 = memref.alloc(%H, %W) : memref<?x?xi8>
  scf.for %i = %c0 to %H step %c1 {
    scf.for %j = %c0 to %W step %c1 {
      %a = arith.muli %i, %c37 : index
      %b = arith.muli %j, %c29 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c251 : index
      %ri = arith.index_cast %r : index to i32
      %r8 = arith.trunci %ri : i32 to i8
      memref.store %r8, %img[%i, %j] : memref<?x?xi8>
    }
  }
  %thr = arith.constant 100 : i8
  call @thresh_clamp(%img, %img2, %thr) : (memref<?x?xi8>, memref<?x?xi8>, i8) -> ()
  %p1 = memref.alloc(%H, %W) : memref<?x?xi32>
  scf.for %i = %c0 to %H step %c1 {
    scf.for %j = %c0 to %W step %c1 {
      %v = memref.load %img2[%i, %j] : memref<?x?xi8>
      %v32 = arith.extui %v : i8 to i32
      memref.store %v32, %p1[%i, %j] : memref<?x?xi32>
    }
  }
  %p1u = memref.cast %p1 : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%p1u) : (memref<*xi32>) -> ()

  %mx = call @umax8(%img) : (memref<?x?xi8>) -> i8
  %mx32 = arith.extui %mx : i8 to i32
  vector.print %mx32 : i32
  // size-1 image
  %one = memref.alloc(%c1, %c1) : memref<?x?xi8>
  %m200 = arith.constant -56 : i8
  memref.store %m200, %one[%c0, %c0] : memref<?x?xi8>
  %mx1 = call @umax8(%one) : (memref<?x?xi8>) -> i8
  %mx132 = arith.extui %mx1 : i8 to i32
  vector.print %mx132 : i32

  // i16 stencil 13x17 with large values -> wraps
  %s16 = memref.alloc(%H, %W) : memref<?x?xi16>
  %o16 = memref.alloc(%H, %W) : memref<?x?xi16>
  scf.for %i = %c0 to %H step %c1 {
    scf.for %j = %c0 to %W step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %r = arith.remui %s, %c13 : index
      %ri = arith.index_cast %r : index to i32
      %k = arith.constant 2731 : i32
      %v = arith.muli %ri, %k : i32
      %v16 = arith.trunci %v : i32 to i16
      memref.store %v16, %s16[%i, %j] : memref<?x?xi16>
    }
  }
  call @lap16(%s16, %o16) : (memref<?x?xi16>, memref<?x?xi16>) -> ()
  %p2 = memref.alloc(%H, %W) : memref<?x?xi32>
  scf.for %i = %c0 to %H step %c1 {
    scf.for %j = %c0 to %W step %c1 {
      %v = memref.load %o16[%i, %j] : memref<?x?xi16>
      %v32 = arith.extsi %v : i16 to i32
      memref.store %v32, %p2[%i, %j] : memref<?x?xi32>
    }
  }
  %p2u = memref.cast %p2 : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%p2u) : (memref<*xi32>) -> ()

  // i64 hash of 0..36
  %hin = memref.alloc(%c37) : memref<?xi64>
  %hout = memref.alloc(%c37) : memref<?xi64>
  scf.for %i = %c0 to %c37 step %c1 {
    %ii = arith.index_cast %i : index to i64
    memref.store %ii, %hin[%i] : memref<?xi64>
  }
  %hx = call @hash64(%hin, %hout) : (memref<?xi64>, memref<?xi64>) -> i64
  %houtu = memref.cast %hout : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%houtu) : (memref<*xi64>) -> ()
  vector.print %hx : i64
  // zero-length hash
  %h0in = memref.alloc(%c0) : memref<?xi64>
  %h0out = memref.alloc(%c0) : memref<?xi64>
  %hx0 = call @hash64(%h0in, %h0out) : (memref<?xi64>, memref<?xi64>) -> i64
  vector.print %hx0 : i64
  return
}
