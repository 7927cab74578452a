// Bilinear image resize (OpenCV cudev / NPP style resize_linear kernel): half-pixel centres, floor, fptosi, clamps with minsi/maxsi; affine.parallel over the destination.
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

// m[i,j] = ((i*3+j*5) mod 7) - off
func.func @fill2d(%m: memref<?x?xf32>, %off: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %j, %c5 : index
      %s = arith.addi %a, %b : index
      %q = arith.remui %s, %c7 : index
      %qi = arith.index_cast %q : index to i32
      %qf = arith.sitofp %qi : i32 to f32
      %v = arith.subf %qf, %off : f32
      memref.store %v, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// m[i] = ((i*3) mod 7) - off
func.func @fill1d(%m: memref<?xf32>, %off: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c3 : index
    %q = arith.remui %a, %c7 : index
    %qi = arith.index_cast %q : index to i32
    %qf = arith.sitofp %qi : i32 to f32
    %v = arith.subf %qf, %off : f32
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// printMemref prints garbage for a 0-sized memref: print its size instead.
func.func @print1d(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %e = arith.cmpi eq, %n, %c0 : index
  scf.if %e {
    vector.print str "empty\n"
  } else {
    %u = memref.cast %m : memref<?xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
func.func @print2d(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  %n = arith.muli %r, %c : index
  %e = arith.cmpi eq, %n, %c0 : index
  scf.if %e {
    vector.print str "empty\n"
  } else {
    %u = memref.cast %m : memref<?x?xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}

func.func @resize_bilinear(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sh = memref.dim %src, %c0 : memref<?x?xf32>
  %sw = memref.dim %src, %c1 : memref<?x?xf32>
  %dh = memref.dim %dst, %c0 : memref<?x?xf32>
  %dw = memref.dim %dst, %c1 : memref<?x?xf32>
  %shi = arith.index_cast %sh : index to i32
  %swi = arith.index_cast %sw : index to i32
  %dhi = arith.index_cast %dh : index to i32
  %dwi = arith.index_cast %dw : index to i32
  %shf = arith.sitofp %shi : i32 to f32
  %swf = arith.sitofp %swi : i32 to f32
  %dhf = arith.sitofp %dhi : i32 to f32
  %dwf = arith.sitofp %dwi : i32 to f32
  %scy = arith.divf %shf, %dhf : f32
  %scx = arith.divf %swf, %dwf : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %lasty = arith.subi %sh, %c1 : index
  %lastx = arith.subi %sw, %c1 : index
  affine.parallel (%y, %x) = (0, 0) to (symbol(%dh), symbol(%dw)) {
    %xi = arith.index_cast %x : index to i32
    %yi = arith.index_cast %y : index to i32
    %xf = arith.sitofp %xi : i32 to f32
    %yf = arith.sitofp %yi : i32 to f32
    %xh = arith.addf %xf, %half : f32
    %yh = arith.addf %yf, %half : f32
    %sx0 = arith.mulf %xh, %scx : f32
    %sy0 = arith.mulf %yh, %scy : f32
    %sx = arith.subf %sx0, %half : f32
    %sy = arith.subf %sy0, %half : f32
    %flx = math.floor %sx : f32
    %fly = math.floor %sy : f32
    %fx = arith.subf %sx, %flx : f32
    %fy = arith.subf %sy, %fly : f32
    %ix32 = arith.fptosi %flx : f32 to i32
    %iy32 = arith.fptosi %fly : f32 to i32
    %ix = arith.index_cast %ix32 : i32 to index
    %iy = arith.index_cast %iy32 : i32 to index
    %x0a = arith.maxsi %ix, %c0 : index
    %x0 = arith.minsi %x0a, %lastx : index
    %y0a = arith.maxsi %iy, %c0 : index
    %y0 = arith.minsi %y0a, %lasty : index
    %ixp = arith.addi %ix, %c1 : index
    %iyp = arith.addi %iy, %c1 : index
    %x1a = arith.maxsi %ixp, %c0 : index
    %x1 = arith.minsi %x1a, %lastx : index
    %y1a = arith.maxsi %iyp, %c0 : index
    %y1 = arith.minsi %y1a, %lasty : index
    %a = memref.load %src[%y0, %x0] : memref<?x?xf32>
    %b = memref.load %src[%y0, %x1] : memref<?x?xf32>
    %c = memref.load %src[%y1, %x0] : memref<?x?xf32>
    %d = memref.load %src[%y1, %x1] : memref<?x?xf32>
    %gx = arith.subf %one, %fx : f32
    %gy = arith.subf %one, %fy : f32
    %ta = arith.mulf %a, %gx : f32
    %tb = arith.mulf %b, %fx : f32
    %top = arith.addf %ta, %tb : f32
    %tc = arith.mulf %c, %gx : f32
    %td = arith.mulf %d, %fx : f32
    %bot = arith.addf %tc, %td : f32
    %t1 = arith.mulf %top, %gy : f32
    %t2 = arith.mulf %bot, %fy : f32
    %v = arith.addf %t1, %t2 : f32
    memref.store %v, %dst[%y, %x] : memref<?x?xf32>
  }
  return
}

func.func @round2d(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 1000.0 : f32
  %r = memref.dim %m, %c0 : memref<?x?xf32>
  %c = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      %w = arith.mulf %v, %k : f32
      %f = math.floor %w : f32
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @run(%sh: index, %sw: index, %dh: index, %dw: index) {
  %src = memref.alloc(%sh, %sw) : memref<?x?xf32>
  %dst = memref.alloc(%dh, %dw) : memref<?x?xf32>
  %o = arith.constant 3.0 : f32
  %o2 = arith.constant 100.0 : f32
  call @fill2d(%src, %o) : (memref<?x?xf32>, f32) -> ()
  call @fill2d(%dst, %o2) : (memref<?x?xf32>, f32) -> ()
  call @resize_bilinear(%src, %dst) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @round2d(%dst) : (memref<?x?xf32>) -> ()
  call @print2d(%dst) : (memref<?x?xf32>) -> ()
  memref.dealloc %src : memref<?x?xf32>
  memref.dealloc %dst : memref<?x?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  // upscale 7x11 -> 29x37, downscale 37x29 -> 13x11, 1-row source, empty destination
  call @run(%c7, %c11, %c29, %c37) : (index, index, index, index) -> ()
  call @run(%c37, %c29, %c13, %c11) : (index, index, index, index) -> ()
  call @run(%c1, %c13, %c7, %c29) : (index, index, index, index) -> ()
  call @run(%c7, %c11, %c0, %c37) : (index, index, index, index) -> ()
  return
}
