// The CPU reference runs loops near the ends of the index type as the
// kernels do, counting iterations: upstream's lowering steps the induction
// variable itself, which wrapped past INT64_MAX, so @full_range never
// stopped and @wide_span ran no iteration (found by the fuzzer).
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit bundle -o %t/b.so
// RUN: timeout 120 threadbind-run %t/b.so --entry full_range --size 4 --reference-only --print | FileCheck %s --check-prefix=FULL
// RUN: timeout 120 threadbind-run %t/b.so --entry wide_span --size 4 --reference-only --print | FileCheck %s --check-prefix=WIDE
// FULL: reference arg0: sum 8,
// WIDE: reference arg0: sum 12,

// -2^63 to 2^63-1 by 2^62: 4 iterations.
func.func @full_range(%out: memref<?xf32>) {
  %lb = arith.constant -9223372036854775808 : index
  %ub = arith.constant 9223372036854775807 : index
  %step = arith.constant 4611686018427387904 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%lb) to (%ub) step (%step) {
    %d = arith.subi %i, %lb : index
    %k = arith.divui %d, %step : index
    memref.store %two, %out[%k] : memref<?xf32>
  }
  return
}

// -2^63+5 to about 7.1e18 by 2^62: 4 iterations, a span over 2^63.
func.func @wide_span(%out: memref<?xf32>) {
  %lb = arith.constant -9223372036854775803 : index
  %ub = arith.constant 7116619024591492980 : index
  %step = arith.constant 4611686018427387904 : index
  %three = arith.constant 3.0 : f32
  scf.parallel (%i) = (%lb) to (%ub) step (%step) {
    %d = arith.subi %i, %lb : index
    %k = arith.divui %d, %step : index
    memref.store %three, %out[%k] : memref<?xf32>
  }
  return
}

// A sum over such a loop: the reference's rewritten loop keeps its
// reduction. 3 iterations of 2^62 from -2^62, each adding 1.5.
// RUN: timeout 120 threadbind-run %t/b.so --entry wide_sum --size 1 --reference-only --print | FileCheck %s --check-prefix=SUM
// SUM: reference arg0: sum 4.5,
func.func @wide_sum(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %lb = arith.constant -4611686018427387904 : index
  %ub = arith.constant 9223372036854775807 : index
  %step = arith.constant 4611686018427387904 : index
  %z = arith.constant 0.0 : f32
  %v = arith.constant 1.5 : f32
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%step) init (%z) -> f32 {
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<?xf32>
  return
}

// No iteration, the sum stored: the bundle keeps the loop as a kernel
// that writes the init (it used to fold, leaving a host store the bundle
// refused; found by the fuzzer).
// RUN: timeout 120 threadbind-run %t/b.so --entry empty_sum --size 1 --reference-only --print | FileCheck %s --check-prefix=EMPTY
// EMPTY: reference arg0: sum 5,
func.func @empty_sum(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %lb = arith.constant 9223372036854775807 : index
  %ub = arith.constant -9223372036854775808 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 5.0 : f32
  %v = arith.constant 1.5 : f32
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%c1) init (%init) -> f32 {
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[%c0] : memref<?xf32>
  return
}
