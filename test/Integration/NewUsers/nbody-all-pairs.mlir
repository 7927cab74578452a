// N-body all-pairs (GPU Gems 3 ch.31, bodyBodyInteraction / computeBodyAccel): float4 AoS positions as memref<?x4xf32>, inner scf.for over all bodies with a 3-float iter_args accumulator, rsqrt.
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

func.func @body_accel(%pos: memref<?x4xf32>, %acc: memref<?x3xf32>, %eps2: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %pos, %c0 : memref<?x4xf32>
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %xi = memref.load %pos[%i, %c0] : memref<?x4xf32>
    %yi = memref.load %pos[%i, %c1] : memref<?x4xf32>
    %zi = memref.load %pos[%i, %c2] : memref<?x4xf32>
    %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%ax = %zero, %ay = %zero, %az = %zero) -> (f32, f32, f32) {
      %xj = memref.load %pos[%j, %c0] : memref<?x4xf32>
      %yj = memref.load %pos[%j, %c1] : memref<?x4xf32>
      %zj = memref.load %pos[%j, %c2] : memref<?x4xf32>
      %mj = memref.load %pos[%j, %c3] : memref<?x4xf32>
      %rx = arith.subf %xj, %xi : f32
      %ry = arith.subf %yj, %yi : f32
      %rz = arith.subf %zj, %zi : f32
      %x2 = arith.mulf %rx, %rx : f32
      %y2 = arith.mulf %ry, %ry : f32
      %z2 = arith.mulf %rz, %rz : f32
      %s0 = arith.addf %x2, %y2 : f32
      %s1 = arith.addf %s0, %z2 : f32
      %dist2 = arith.addf %s1, %eps2 : f32
      %inv = math.rsqrt %dist2 : f32
      %inv2 = arith.mulf %inv, %inv : f32
      %inv3 = arith.mulf %inv2, %inv : f32
      %s = arith.mulf %mj, %inv3 : f32
      %dx = arith.mulf %rx, %s : f32
      %dy = arith.mulf %ry, %s : f32
      %dz = arith.mulf %rz, %s : f32
      %nx = arith.addf %ax, %dx : f32
      %ny = arith.addf %ay, %dy : f32
      %nz = arith.addf %az, %dz : f32
      scf.yield %nx, %ny, %nz : f32, f32, f32
    }
    memref.store %r#0, %acc[%i, %c0] : memref<?x3xf32>
    memref.store %r#1, %acc[%i, %c1] : memref<?x3xf32>
    memref.store %r#2, %acc[%i, %c2] : memref<?x3xf32>
  }
  return
}

func.func @run(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %pos = memref.alloc(%n) : memref<?x4xf32>
  %acc = memref.alloc(%n) : memref<?x3xf32>
  %f3 = arith.constant 3.0 : f32
  %one = arith.constant 1.0 : f32
  // pos[i][k] = ((i*3 + k*5) mod 7) - 3 for xyz; mass = ((i*3+15) mod 7) + 1
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %a = arith.muli %i, %c3 : index
      %b = arith.muli %k, %c5 : index
      %s = arith.addi %a, %b : index
      %q = arith.remui %s, %c7 : index
      %qi = arith.index_cast %q : index to i32
      %qf = arith.sitofp %qi : i32 to f32
      %ism = arith.cmpi eq, %k, %c3 : index
      %m = arith.addf %qf, %one : f32
      %p = arith.subf %qf, %f3 : f32
      %v = arith.select %ism, %m, %p : f32
      memref.store %v, %pos[%i, %k] : memref<?x4xf32>
    }
    scf.for %k = %c0 to %c3 step %c1 {
      memref.store %f3, %acc[%i, %k] : memref<?x3xf32>
    }
  }
  %eps2 = arith.constant 0.25 : f32
  call @body_accel(%pos, %acc, %eps2) : (memref<?x4xf32>, memref<?x3xf32>, f32) -> ()
  %k1000 = arith.constant 1000.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %v = memref.load %acc[%i, %k] : memref<?x3xf32>
      %w = arith.mulf %v, %k1000 : f32
      %f = math.floor %w : f32
      memref.store %f, %acc[%i, %k] : memref<?x3xf32>
    }
  }
  %e = arith.cmpi eq, %n, %c0 : index
  scf.if %e {
    vector.print str "empty\n"
  } else {
    %u = memref.cast %acc : memref<?x3xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  memref.dealloc %pos : memref<?x4xf32>
  memref.dealloc %acc : memref<?x3xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c37 = arith.constant 37 : index
  call @run(%c37) : (index) -> ()
  call @run(%c1) : (index) -> ()
  call @run(%c0) : (index) -> ()
  return
}
