// The sequential fallback keeps meaning: functions with a reduction no
// mapping takes, host code that reads sizes and values from memory, a
// function with no parallel loop at all, and host code that prints what
// it reads, all run through the gpu.launch emulation and print what the
// originals print, under the default options and under the option sets
// that change the mapping.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu 2>/dev/null > %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" 2>/dev/null > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" 2>/dev/null > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// Every function but the harness has kernels, and no loop is left outside.
// RUN: FileCheck %s --check-prefix=MAPPED < %t.default.mlir
// MAPPED-LABEL: func.func @max_abs
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @scaled_prefix
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @running_sum
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @main
// MAPPED-NOT: gpu.launch

// CHECK: max_abs 4.5
// CHECK: prefix 0 2 4 6 8 -1 -1 -1
// CHECK: peek 28
// CHECK: sums 0 1 3 6 10 15 21 28

// The largest |x| with a combiner region on f64 (left to one thread), and
// x doubled in parallel beside it.
func.func @max_abs(%x: memref<?xf64>, %out: memref<1xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %aa = math.absf %a : f64
      %bb = math.absf %b : f64
      %m = arith.maximumf %aa, %bb : f64
      scf.reduce.return %m : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.addf %v, %v : f64
    memref.store %w, %y[%i] : memref<?xf64>
  }
  return
}

// out[i] = 2 i for i below a count read from memory, through a scratch
// buffer the function allocates; the count is also written back.
func.func @scaled_prefix(%count: memref<1xindex>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.load %count[%c0] : memref<1xindex>
  %tmp = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %tmp[%i] : memref<?xf32>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %tmp[%i] : memref<?xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %out[%i] : memref<?xf32>
  }
  memref.dealloc %tmp : memref<?xf32>
  %n2 = arith.addi %n, %c0 : index
  memref.store %n2, %count[%c0] : memref<1xindex>
  return
}

// An inclusive prefix sum, a truly sequential loop, and the last value
// printed from the host.
func.func @running_sum(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c1 to %n step %c1 {
    %p = arith.subi %i, %c1 : index
    %a = memref.load %x[%p] : memref<?xf32>
    %b = memref.load %x[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %x[%i] : memref<?xf32>
  }
  %last = arith.subi %n, %c1 : index
  %v = memref.load %x[%last] : memref<?xf32>
  vector.print str "peek "
  vector.print %v : f32
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %minus = arith.constant -1.0 : f32

  %x = memref.alloc(%c9) : memref<?xf64>
  %y = memref.alloc(%c9) : memref<?xf64>
  %out = memref.alloc() : memref<1xf64>
  scf.for %i = %c0 to %c9 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %h = arith.constant 3.5 : f64
    %d = arith.subf %h, %f : f64
    memref.store %d, %x[%i] : memref<?xf64>
  }
  call @max_abs(%x, %out, %y) : (memref<?xf64>, memref<1xf64>, memref<?xf64>) -> ()
  %m = memref.load %out[%c0] : memref<1xf64>
  %mf = arith.truncf %m : f64 to f32
  vector.print str "max_abs "
  vector.print %mf : f32

  %count = memref.alloc() : memref<1xindex>
  memref.store %c5, %count[%c0] : memref<1xindex>
  %p = memref.alloc(%c8) : memref<?xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %minus, %p[%i] : memref<?xf32>
  }
  call @scaled_prefix(%count, %p) : (memref<1xindex>, memref<?xf32>) -> ()
  vector.print str "prefix"
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %p[%i] : memref<?xf32>
    vector.print str " "
    vector.print %v : f32 punctuation <no_punctuation>
  }
  vector.print str "\n"

  %s = memref.alloc(%c8) : memref<?xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %s[%i] : memref<?xf32>
  }
  call @running_sum(%s) : (memref<?xf32>) -> ()
  vector.print str "sums"
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %s[%i] : memref<?xf32>
    vector.print str " "
    vector.print %v : f32 punctuation <no_punctuation>
  }
  vector.print str "\n"
  return
}
