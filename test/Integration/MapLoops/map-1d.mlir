// 1-D loops bound by threadbind-map-loops-to-threads, run on the CPU through
// the gpu.launch emulation, must print exactly what the original prints, for
// sizes 0, 1, 31, 33, 256, 512 and 1000003, under each grid policy, a tiny
// host-chosen grid (many iterations per thread) and a one-warp block.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads > %t.host.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.host.mlir
// RUN: threadbind-opt %t.host.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.host
// RUN: diff %t.ref %t.host

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=max-blocks=100000 > %t.wide.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.wide.mlir
// RUN: threadbind-opt %t.wide.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.wide
// RUN: diff %t.ref %t.wide

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=grid-policy=cover > %t.cover.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover

// RUN: threadbind-opt %s -threadbind-map-loops-to-threads="threads-per-block=32 max-blocks=3" > %t.warp.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.warp.mlir
// RUN: threadbind-opt %t.warp.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.warp
// RUN: diff %t.ref %t.warp

// MAPPED-LABEL: func.func @scale_add
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @offset_step
// MAPPED: gpu.launch
// MAPPED-NOT: scf.parallel
// MAPPED-LABEL: func.func @check

// out[i] = in[i] * 2 + i
func.func @scale_add(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %in[%i] : memref<?xf32>
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %y = arith.mulf %x, %two : f32
    %z = arith.addf %y, %fi : f32
    memref.store %z, %out[%i] : memref<?xf32>
  }
  return
}

// out[i] = in[i] + 1 for i = lb, lb + 3, ... < n: a non-zero, dynamic lower
// bound and a non-unit step.
func.func @offset_step(%in: memref<?xf32>, %out: memref<?xf32>, %lb: index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.parallel (%i) = (%lb) to (%n) step (%c3) {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

// The grid-stride mapping asks the host how many blocks fit on the device;
// a tiny answer makes every thread loop many times.
func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c5 = arith.constant 5 : index
  return %c5 : index
}

// Prints sum(out[i] * (i % 13 + 1)) and how many elements were never written
// (still -1): both exact in f64 for these sizes.
func.func @summarise(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %zero = arith.constant 0.0 : f64
  %minus1 = arith.constant -1.0 : f32
  %n = memref.dim %out, %c0 : memref<?xf32>
  %sum, %unwritten = scf.for %i = %c0 to %n step %c1
      iter_args(%s = %zero, %u = %c0) -> (f64, index) {
    %v = memref.load %out[%i] : memref<?xf32>
    %w = arith.remui %i, %c13 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i64
    %wf = arith.sitofp %wi : i64 to f64
    %vd = arith.extf %v : f32 to f64
    %t = arith.mulf %vd, %wf : f64
    %s1 = arith.addf %s, %t : f64
    %is = arith.cmpf oeq, %v, %minus1 : f32
    %inc = arith.select %is, %c1, %c0 : index
    %u1 = arith.addi %u, %inc : index
    scf.yield %s1, %u1 : f64, index
  }
  %exact = arith.fptosi %sum : f64 to i64
  vector.print str "checksum "
  vector.print %exact : i64
  vector.print str "unwritten "
  vector.print %unwritten : index
  return
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c1024 = arith.constant 1024 : index
  %minus1 = arith.constant -1.0 : f32
  %in = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.remui %i, %c1024 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    memref.store %rf, %in[%i] : memref<?xf32>
    memref.store %minus1, %out[%i] : memref<?xf32>
  }
  vector.print str "size "
  vector.print %n : index
  call @scale_add(%in, %out) : (memref<?xf32>, memref<?xf32>) -> ()
  call @summarise(%out) : (memref<?xf32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    memref.store %minus1, %out[%i] : memref<?xf32>
  }
  call @offset_step(%in, %out, %c2) : (memref<?xf32>, memref<?xf32>, index) -> ()
  call @summarise(%out) : (memref<?xf32>) -> ()
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}

// For each size, @scale_add then @offset_step. Sizes 0 and 1 are checked
// by hand; the rest must match the original, which the diffs check.
// CHECK: size 0
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: size 1
// CHECK-NEXT: checksum 0
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: checksum -1
// CHECK-NEXT: unwritten 1
// CHECK-NEXT: size 31
// CHECK: size 1000003
// CHECK-NEXT: checksum
// CHECK-NEXT: unwritten 0
// CHECK-NEXT: checksum
// CHECK-NEXT: unwritten 666669
func.func @main() {
  %sizes = arith.constant dense<[0, 1, 31, 33, 256, 512, 1000003]> : vector<7xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %k = %c0 to %c7 step %c1 {
    %n = vector.extract %sizes[%k] : index from vector<7xindex>
    func.call @check(%n) : (index) -> ()
  }
  return
}
