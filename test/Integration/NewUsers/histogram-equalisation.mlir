// Histogram equalisation (CUDA 'histogram_equalization' textbook kernels, e.g. Kirk & Hwu ch.9 + CDF/LUT): linalg.fill zeroing, 2-D scf.parallel histogram with memref.atomic_rmw addi, prefix-free CDF (each bin reduces hist[0..b] with scf.reduce), LUT, 2-D remap.
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

func.func @equalize(%img: memref<?x?xf32>, %out: memref<?x?xf32>, %hist: memref<?xi32>, %lut: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %img, %c0 : memref<?x?xf32>
  %w = memref.dim %img, %c1 : memref<?x?xf32>
  %nb = memref.dim %hist, %c0 : memref<?xi32>
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  linalg.fill ins(%z : i32) outs(%hist : memref<?xi32>)
  // histogram
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %img[%y, %x] : memref<?x?xf32>
    %b32 = arith.fptosi %v : f32 to i32
    %b = arith.index_cast %b32 : i32 to index
    %old = memref.atomic_rmw addi %one, %hist[%b] : (i32, memref<?xi32>) -> i32
  }
  // cdf min = first nonzero bin's count: min over bins of (hist>0 ? prefix : N)
  %n = arith.muli %h, %w : index
  %n32 = arith.index_cast %n : index to i32
  %nf = arith.sitofp %n32 : i32 to f32
  %lmax = arith.subi %nb, %c1 : index
  %lmax32 = arith.index_cast %lmax : index to i32
  %lmaxf = arith.sitofp %lmax32 : i32 to f32
  %cdfmin = scf.parallel (%b) = (%c0) to (%nb) step (%c1) init (%n32) -> i32 {
    %b1 = arith.addi %b, %c1 : index
    %cdf = scf.parallel (%k) = (%c0) to (%b1) step (%c1) init (%z) -> i32 {
      %hk = memref.load %hist[%k] : memref<?xi32>
      scf.reduce(%hk : i32) {
      ^bb0(%a: i32, %c: i32):
        %s = arith.addi %a, %c : i32
        scf.reduce.return %s : i32
      }
    }
    %hb = memref.load %hist[%b] : memref<?xi32>
    %nz = arith.cmpi sgt, %hb, %z : i32
    %cand = arith.select %nz, %cdf, %n32 : i32
    scf.reduce(%cand : i32) {
    ^bb0(%a: i32, %c: i32):
      %m = arith.minsi %a, %c : i32
      scf.reduce.return %m : i32
    }
  }
  %cmf = arith.sitofp %cdfmin : i32 to f32
  %den = arith.subf %nf, %cmf : f32
  // LUT: lut[b] = floor((cdf[b] - cdfmin) * (L-1) / (N - cdfmin)), prefix-free
  scf.parallel (%b) = (%c0) to (%nb) step (%c1) {
    %b1 = arith.addi %b, %c1 : index
    %cdf = scf.for %k = %c0 to %b1 step %c1 iter_args(%acc = %z) -> i32 {
      %hk = memref.load %hist[%k] : memref<?xi32>
      %s = arith.addi %acc, %hk : i32
      scf.yield %s : i32
    }
    %cf = arith.sitofp %cdf : i32 to f32
    %num0 = arith.subf %cf, %cmf : f32
    %num = arith.mulf %num0, %lmaxf : f32
    %q = arith.divf %num, %den : f32
    %fl = math.floor %q : f32
    %zf = arith.constant 0.0 : f32
    %cl = arith.maximumf %fl, %zf : f32
    memref.store %cl, %lut[%b] : memref<?xf32>
  }
  // remap
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %v = memref.load %img[%y, %x] : memref<?x?xf32>
    %b32 = arith.fptosi %v : f32 to i32
    %b = arith.index_cast %b32 : i32 to index
    %l = memref.load %lut[%b] : memref<?xf32>
    memref.store %l, %out[%y, %x] : memref<?x?xf32>
  }
  return
}

func.func @run(%h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %img = memref.alloc(%h, %w) : memref<?x?xf32>
  %out = memref.alloc(%h, %w) : memref<?x?xf32>
  %hist = memref.alloc(%c16) : memref<?xi32>
  %lut = memref.alloc(%c16) : memref<?xf32>
  %o0 = arith.constant 0.0 : f32
  %o9 = arith.constant 9.0 : f32
  call @fill2d(%img, %o0) : (memref<?x?xf32>, f32) -> ()
  call @fill2d(%out, %o9) : (memref<?x?xf32>, f32) -> ()
  call @equalize(%img, %out, %hist, %lut) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xi32>, memref<?xf32>) -> ()
  %u = memref.cast %hist : memref<?xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  call @print1d(%lut) : (memref<?xf32>) -> ()
  call @print2d(%out) : (memref<?x?xf32>) -> ()
  memref.dealloc %img : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  memref.dealloc %hist : memref<?xi32>
  memref.dealloc %lut : memref<?xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  call @run(%c37, %c29) : (index, index) -> ()
  call @run(%c1, %c29) : (index, index) -> ()
  call @run(%c1, %c1) : (index, index) -> ()
  call @run(%c0, %c29) : (index, index) -> ()
  return
}
