// Forms from front ends and hand-written code that the other tests do not
// cover, gathered in one program: index arithmetic in the index dialect
// (index.sub, index.divu, index.casts); a function the user mapped by hand
// with gpu.launch next to a loop for ThreadBind; Blelloch's exclusive scan
// as host scf.while levels of parallel loops with run-time steps; an
// in-place transpose swapping across the diagonal under i < j; a step of
// Conway's life on a torus (remui wrap-around, i8 cells, a 2x2 inner loop);
// and loop bodies written with vector.load, vector.fma and
// vector.reduction on a 0-d memref's broadcast value.
// From the new-user rounds of 2026-11-29 (all ran right as found).
// Checked in CPU emulation against the original (the hand-written launch
// emulated too), as threadbind-compile binds it under the defaults, a
// cover grid of 64-thread blocks with split tails, a 3-D block shape of at
// most 3 blocks with kept tails and unrolled widening, and 1x1x1 blocks
// with 8-byte vectors and read-only loads; its kernels assembled by ptxas.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.ref
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
// RUN: threadbind-compile --emit=mlir --block-shape=1,1,1 --vector-bytes=8 --read-only-loads %s -o %t.one.mlir
// RUN: threadbind-opt %t.one.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.one
// RUN: diff %t.ref %t.one
// RUN: %if ptxas %{ threadbind-compile --emit=cubin %s -o %t.cubin %}
// A bundle leaves out main and the private helpers only it calls, which
// fill inputs on the host (it refused the file while they stayed), and
// its entries' CPU references run.
// RUN: threadbind-compile --emit=bundle %s -o %t.so
// RUN: threadbind-run %t.so --list | FileCheck %s --check-prefix=LIST
// RUN: threadbind-run %t.so --entry scan --size 64 --reference-only
// RUN: threadbind-run %t.so --entry life --size 5,37 --reference-only
// LIST: saxpy_rows(memref<?x?xf32>, memref<?x?xf32>, f32)
// LIST-NEXT: both(memref<?xf32>, memref<?xf32>)
// LIST-NEXT: scan(memref<?xf32>)
// LIST-NEXT: transpose_in_place(memref<?x?xf32>)
// LIST-NEXT: life(memref<?x?xi8>, memref<?x?xi8>)
// LIST-NEXT: axpy4(memref<?xf32>, memref<?xf32>, memref<f32>, memref<?xf32>)
// The exclusive scan of i mod 7: 0, 0, 0+1, 0+1+2, ...
// REF: [0,  0,  1,  3,  6,  10,  15,  21,  21,  22,
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

// Index arithmetic in the index dialect, as some front ends emit it.

func.func @saxpy_rows(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %a: f32) {
  %c0 = index.constant 0
  %c1 = index.constant 1
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %half = index.divu %n, %c1
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %half) step (%c1, %c1) {
    %jj = index.sub %n, %c1
    %jr = index.sub %jj, %j
    %v = memref.load %x[%i, %jr] : memref<?x?xf32>
    %w = memref.load %y[%i, %j] : memref<?x?xf32>
    %p = arith.mulf %a, %v : f32
    %s = arith.addf %p, %w : f32
    %ic = index.casts %i : index to i32
    %f = arith.sitofp %ic : i32 to f32
    %t = arith.addf %s, %f : f32
    memref.store %t, %y[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

func.func private @main_index_dialect() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 33 : index
  %n = arith.constant 37 : index
  %x = memref.alloc(%m, %n) : memref<?x?xf32>
  %y = memref.alloc(%m, %n) : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %k = arith.muli %i, %n : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %x[%i, %j] : memref<?x?xf32>
      %g = arith.negf %f : f32
      memref.store %g, %y[%i, %j] : memref<?x?xf32>
    }
  }
  %a = arith.constant 2.0 : f32
  call @saxpy_rows(%x, %y, %a) : (memref<?x?xf32>, memref<?x?xf32>, f32) -> ()
  %u = memref.cast %y : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
// A function the user already mapped by hand (gpu.launch), next to a loop
// for ThreadBind to map.

func.func @both(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %blocks = arith.ceildivui %n, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %v = memref.load %a[%i] : memref<?xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %a[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %w = arith.addf %v, %one : f32
    memref.store %w, %b[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

func.func private @main_prelaunched() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 131 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %a[%i] : memref<?xf32>
  }
  call @both(%a, %b) : (memref<?xf32>, memref<?xf32>) -> ()
  %u = memref.cast %b : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
// Blelloch's work-efficient exclusive scan, as a host loop over levels of
// parallel loops with run-time steps (GPU Gems 3, ch. 39), n a power of two.

func.func @scan(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // Up-sweep: for d = 1, 2, 4, ... < n: x[k + 2d - 1] += x[k + d - 1], k step 2d.
  %last = scf.while (%d = %c1) : (index) -> index {
    %go = arith.cmpi ult, %d, %n : index
    scf.condition(%go) %d : index
  } do {
  ^bb0(%d: index):
    %d2 = arith.muli %d, %c2 : index
    scf.parallel (%k) = (%c0) to (%n) step (%d2) {
      %a = arith.addi %k, %d : index
      %ia = arith.subi %a, %c1 : index
      %b = arith.addi %k, %d2 : index
      %ib = arith.subi %b, %c1 : index
      %va = memref.load %x[%ia] : memref<?xf32>
      %vb = memref.load %x[%ib] : memref<?xf32>
      %s = arith.addf %va, %vb : f32
      memref.store %s, %x[%ib] : memref<?xf32>
      scf.reduce
    }
    scf.yield %d2 : index
  }
  %nm1 = arith.subi %n, %c1 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %x[%nm1] : memref<?xf32>
  // Down-sweep: for d = n/2, ..., 1.
  %top = arith.divui %n, %c2 : index
  %r = scf.while (%d = %top) : (index) -> index {
    %go = arith.cmpi uge, %d, %c1 : index
    scf.condition(%go) %d : index
  } do {
  ^bb0(%d: index):
    %d2 = arith.muli %d, %c2 : index
    scf.parallel (%k) = (%c0) to (%n) step (%d2) {
      %a = arith.addi %k, %d : index
      %ia = arith.subi %a, %c1 : index
      %b = arith.addi %k, %d2 : index
      %ib = arith.subi %b, %c1 : index
      %t = memref.load %x[%ia] : memref<?xf32>
      %vb = memref.load %x[%ib] : memref<?xf32>
      memref.store %vb, %x[%ia] : memref<?xf32>
      %s = arith.addf %t, %vb : f32
      memref.store %s, %x[%ib] : memref<?xf32>
      scf.reduce
    }
    %h = arith.divui %d, %c2 : index
    scf.yield %h : index
  }
  return
}

func.func private @main_scan_blelloch() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %n = arith.constant 64 : index
  %x = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.remui %i, %c7 : index
    %ii = arith.index_cast %m : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%i] : memref<?xf32>
  }
  call @scan(%x) : (memref<?xf32>) -> ()
  %u = memref.cast %x : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
// An in-place square transpose over the upper triangle (i < j swaps), and
// one step of Conway's life on a torus (remui wrap-around), i8 cells.

func.func @transpose_in_place(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %upper = arith.cmpi ult, %i, %j : index
    scf.if %upper {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = memref.load %a[%j, %i] : memref<?x?xf32>
      memref.store %y, %a[%i, %j] : memref<?x?xf32>
      memref.store %x, %a[%j, %i] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

func.func @life(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = memref.dim %in, %c0 : memref<?x?xi8>
  %w = memref.dim %in, %c1 : memref<?x?xi8>
  scf.parallel (%y, %x) = (%c0, %c0) to (%h, %w) step (%c1, %c1) {
    %zero = arith.constant 0 : i8
    %sum = scf.for %dy = %c0 to %c2 step %c1 iter_args(%s0 = %zero) -> (i8) {
      %s1 = scf.for %dx = %c0 to %c2 step %c1 iter_args(%t = %s0) -> (i8) {
        // Offsets -1 and +1 only: (dy, dx) in {0, 2}, plus the row and column itself below.
        %oy = arith.muli %dy, %c2 : index
        %ox = arith.muli %dx, %c2 : index
        %yy0 = arith.addi %y, %h : index
        %yy1 = arith.addi %yy0, %oy : index
        %yy2 = arith.subi %yy1, %c1 : index
        %yy = arith.remui %yy2, %h : index
        %xx0 = arith.addi %x, %w : index
        %xx1 = arith.addi %xx0, %ox : index
        %xx2 = arith.subi %xx1, %c1 : index
        %xx = arith.remui %xx2, %w : index
        %v = memref.load %in[%yy, %xx] : memref<?x?xi8>
        %t2 = arith.addi %t, %v : i8
        scf.yield %t2 : i8
      }
      scf.yield %s1 : i8
    }
    %ym = arith.addi %y, %h : index
    %ym1 = arith.subi %ym, %c1 : index
    %up = arith.remui %ym1, %h : index
    %yp = arith.addi %y, %c1 : index
    %down = arith.remui %yp, %h : index
    %xm = arith.addi %x, %w : index
    %xm1 = arith.subi %xm, %c1 : index
    %left = arith.remui %xm1, %w : index
    %xp = arith.addi %x, %c1 : index
    %right = arith.remui %xp, %w : index
    %a = memref.load %in[%up, %x] : memref<?x?xi8>
    %b = memref.load %in[%down, %x] : memref<?x?xi8>
    %c = memref.load %in[%y, %left] : memref<?x?xi8>
    %d = memref.load %in[%y, %right] : memref<?x?xi8>
    %s2 = arith.addi %sum, %a : i8
    %s3 = arith.addi %s2, %b : i8
    %s4 = arith.addi %s3, %c : i8
    %n = arith.addi %s4, %d : i8
    %self = memref.load %in[%y, %x] : memref<?x?xi8>
    %three = arith.constant 3 : i8
    %twoi = arith.constant 2 : i8
    %is3 = arith.cmpi eq, %n, %three : i8
    %is2 = arith.cmpi eq, %n, %twoi : i8
    %one = arith.constant 1 : i8
    %alive = arith.cmpi eq, %self, %one : i8
    %stay = arith.andi %alive, %is2 : i1
    %live = arith.ori %is3, %stay : i1
    %r = arith.extui %live : i1 to i8
    memref.store %r, %out[%y, %x] : memref<?x?xi8>
    scf.reduce
  }
  return
}

func.func private @main_tri_swap_life() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %n = arith.constant 37 : index
  %a = memref.alloc(%n, %n) : memref<?x?xf32>
  %in = memref.alloc(%c5, %n) : memref<?x?xi8>
  %out = memref.alloc(%c5, %n) : memref<?x?xi8>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %k = arith.muli %i, %n : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %a[%i, %j] : memref<?x?xf32>
    }
  }
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %k = arith.muli %i, %j : index
      %l = arith.addi %k, %j : index
      %m = arith.remui %l, %c3 : index
      %z = arith.cmpi eq, %m, %c0 : index
      %v = arith.extui %z : i1 to i8
      memref.store %v, %in[%i, %j] : memref<?x?xi8>
    }
  }
  call @transpose_in_place(%a) : (memref<?x?xf32>) -> ()
  call @life(%in, %out) : (memref<?x?xi8>, memref<?x?xi8>) -> ()
  %u = memref.cast %a : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %o32 = memref.alloc(%c5, %n) : memref<?x?xi32>
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %out[%i, %j] : memref<?x?xi8>
      %w = arith.extui %v : i8 to i32
      memref.store %w, %o32[%i, %j] : memref<?x?xi32>
    }
  }
  %o = memref.cast %o32 : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%o) : (memref<*xi32>) -> ()
  return
}
// Loops whose bodies the user wrote with vector ops: vector.load/store of
// 4 floats, vector.fma, vector.reduction, and a 0-d memref the host fills.

func.func @axpy4(%x: memref<?xf32>, %y: memref<?xf32>, %a: memref<f32>, %sums: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %q = arith.divui %n, %c4 : index
  %s = memref.load %a[] : memref<f32>
  %sv = vector.broadcast %s : f32 to vector<4xf32>
  scf.parallel (%i) = (%c0) to (%q) step (%c1) {
    %base = arith.muli %i, %c4 : index
    %vx = vector.load %x[%base] : memref<?xf32>, vector<4xf32>
    %vy = vector.load %y[%base] : memref<?xf32>, vector<4xf32>
    %r = vector.fma %sv, %vx, %vy : vector<4xf32>
    vector.store %r, %y[%base] : memref<?xf32>, vector<4xf32>
    %t = vector.reduction <add>, %r : vector<4xf32> into f32
    memref.store %t, %sums[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

func.func private @main_vector_ops() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 132 : index
  %q = arith.constant 33 : index
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  %sums = memref.alloc(%q) : memref<?xf32>
  %a = memref.alloc() : memref<f32>
  %two = arith.constant 2.0 : f32
  memref.store %two, %a[] : memref<f32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%i] : memref<?xf32>
    memref.store %f, %y[%i] : memref<?xf32>
  }
  call @axpy4(%x, %y, %a, %sums) : (memref<?xf32>, memref<?xf32>, memref<f32>, memref<?xf32>) -> ()
  %u = memref.cast %y : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %sums : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  call @main_index_dialect() : () -> ()
  call @main_prelaunched() : () -> ()
  call @main_scan_blelloch() : () -> ()
  call @main_tri_swap_life() : () -> ()
  call @main_vector_ops() : () -> ()
  return
}
