// RUN: threadbind-opt %s -threadbind-test-print-uniformity=tagged-only -split-input-file -verify-diagnostics

// Thread ids with a 32x8 block: x diverges; y and z are the same across a
// warp (a row of 32 threads is one warp); so are x / 32 and x & ~31.
gpu.module @warp_rows {
  gpu.func @k(%a: memref<?xf32>, %n: index, %flag: i1) kernel
      attributes {known_block_size = array<i32: 32, 8, 1>} {
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    %tx = gpu.thread_id x {tag}
    // expected-remark @below {{uniformity: warp-uniform (from 'gpu.thread_id')}}
    %ty = gpu.thread_id y {tag}
    // The z extent is 1: every thread has threadIdx.z = 0.
    // expected-remark @below {{uniformity: uniform}}
    %tz = gpu.thread_id z {tag}
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c5 = arith.constant 5 : index
    %mask = arith.constant -32 : index
    // expected-remark @below {{uniformity: warp-uniform (from 'gpu.thread_id')}}
    %warp = arith.divui %tx, %c32 {tag} : index
    // expected-remark @below {{uniformity: warp-uniform (from 'gpu.thread_id')}}
    %shifted = arith.shrui %tx, %c5 {tag} : index
    // expected-remark @below {{uniformity: warp-uniform (from 'gpu.thread_id')}}
    %aligned = arith.andi %tx, %mask {tag} : index
    // Dividing by 2 still differs within a warp.
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    %half = arith.divui %tx, %c2 {tag} : index

    // if (tid < 2): divergent.
    %lt = arith.cmpi ult, %tx, %c2 : index
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    scf.if %lt {
      gpu.printf "a"
    } {tag}
    // tid % 2 == 0: divergent.
    %c0 = arith.constant 0 : index
    %rem = arith.remui %tx, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    scf.if %even {
      gpu.printf "b"
    } {tag}
    // A kernel argument: uniform.
    // expected-remark @below {{branch: uniform}}
    scf.if %flag {
      gpu.printf "c"
    } {tag}
    // blockIdx: the same for the whole block, so no divergence.
    %bx = gpu.block_id x
    %first = arith.cmpi eq, %bx, %c0 : index
    // expected-remark @below {{branch: block-uniform (from 'gpu.block_id')}}
    scf.if %first {
      gpu.printf "d"
    } {tag}
    // threadIdx.y with a 32x8 block: warp-uniform.
    %row = arith.cmpi ult, %ty, %c2 : index
    // expected-remark @below {{branch: warp-uniform (from 'gpu.thread_id')}}
    scf.if %row {
      gpu.printf "e"
    } {tag}
    // The bounds check of a bound loop: i from the thread id against N.
    %bdim = gpu.block_dim x
    %base = arith.muli %bx, %bdim : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi ult, %i, %n : index
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    scf.if %inside {
      gpu.printf "f"
    } {tag}
    gpu.return
  }
}

// -----

// With a 16x16 block a warp spans two rows: threadIdx.y diverges.
gpu.module @half_rows {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    %ty = gpu.thread_id y {tag}
    %c2 = arith.constant 2 : index
    %row = arith.cmpi ult, %ty, %c2 : index
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    scf.if %row {
      gpu.printf "a"
    } {tag}
    gpu.return
  }
}

// -----

// Without a known block shape, every thread id is divergent.
gpu.module @unknown_shape {
  gpu.func @k() kernel {
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    %ty = gpu.thread_id y {tag}
    gpu.return
  }
}

// -----

// Values after a divergent scf.if differ between threads even when both
// sides yield the same uniform value; after a uniform one they do not.
gpu.module @after_if {
  gpu.func @k(%flag: i1) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tx = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %lt = arith.cmpi ult, %tx, %c2 : index
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    %r = scf.if %lt -> index {
      scf.yield %c1 : index
    } else {
      scf.yield %c1 : index
    } {tag}
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    %s = arith.addi %r, %c1 {tag} : index
    // expected-remark @below {{uniformity: uniform}}
    // expected-remark @below {{branch: uniform}}
    %u = scf.if %flag -> index {
      scf.yield %c1 : index
    } else {
      scf.yield %c2 : index
    } {tag}
    gpu.return
  }
}

// -----

// A loop with uniform bounds: its induction variable and results are
// uniform. A loop whose bound is loaded at a divergent address: divergent.
gpu.module @loops {
  gpu.func @k(%a: memref<?xindex>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-remark @below {{uniformity: uniform}}
    // expected-remark @below {{branch: uniform}}
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
      // expected-remark @below {{uniformity: uniform}}
      %next = arith.addi %acc, %i {tag} : index
      scf.yield %next : index
    } {tag}
    %tx = gpu.thread_id x
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    %bound = memref.load %a[%tx] {tag} : memref<?xindex>
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    %count = scf.for %j = %c0 to %bound step %c1 iter_args(%acc = %c0) -> index {
      // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
      %next = arith.addi %acc, %j {tag} : index
      scf.yield %next : index
    } {tag}
    // A load at a uniform address is uniform.
    // expected-remark @below {{uniformity: uniform}}
    %v = memref.load %a[%n] {tag} : memref<?xindex>
    gpu.return
  }
}

// -----

// Divergence from memory: atomics and thread-private buffers; collectives
// give all participants one answer; gpu.launch ids come from its region.
func.func @launch(%a: memref<?xf32>, %x: f32) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    // expected-remark @below {{uniformity: divergent (from 'memref.atomic_rmw')}}
    %old = memref.atomic_rmw addf %x, %a[%c0] {tag} : (f32, memref<?xf32>) -> f32
    %scratch = memref.alloca() : memref<4xf32>
    // expected-remark @below {{uniformity: divergent (from 'memref.alloca')}}
    %p = memref.load %scratch[%c0] {tag} : memref<4xf32>
    // expected-remark @below {{uniformity: divergent (from 'gpu.launch')}}
    %t = arith.addi %tx, %c0 {tag} : index
    // expected-remark @below {{uniformity: block-uniform (from 'gpu.launch')}}
    %b = arith.addi %bx, %c0 {tag} : index
    // expected-remark @below {{uniformity: uniform}}
    %g = arith.addi %gx, %c0 {tag} : index
    // expected-remark @below {{uniformity: warp-uniform (from 'gpu.subgroup_reduce')}}
    %sum = gpu.subgroup_reduce add %x {tag} : (f32) -> f32
    gpu.terminator
  }
  return
}

// -----

// scf.while on a divergent condition: its results diverge; cf.cond_br is
// classified by its condition.
gpu.module @while_and_cf {
  gpu.func @k(%n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tx = gpu.thread_id x
    %c1 = arith.constant 1 : index
    // expected-remark @below {{uniformity: divergent (from 'gpu.thread_id')}}
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    %r = scf.while (%v = %c1) : (index) -> index {
      %go = arith.cmpi ult, %v, %tx : index
      scf.condition(%go) %v : index
    } do {
    ^bb0(%w: index):
      %next = arith.addi %w, %c1 : index
      scf.yield %next : index
    } attributes {tag}
    %small = arith.cmpi ult, %n, %c1 : index
    // expected-remark @below {{branch: uniform}}
    cf.cond_br %small, ^a, ^b {tag}
  ^a:
    gpu.return
  ^b:
    %odd = arith.cmpi ult, %tx, %c1 : index
    // expected-remark @below {{branch: divergent (from 'gpu.thread_id')}}
    cf.cond_br %odd, ^a, ^c {tag}
  ^c:
    gpu.return
  }
}
