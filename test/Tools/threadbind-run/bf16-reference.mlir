// A bundle whose CPU reference converts to bf16 links and rounds right.
// LLVM's x86 code generator rounds f32 and f64 to bf16 by calling
// __truncsfbf2 and __truncdfbf2, which the libgcc of GCC 12 (Debian 12's)
// lacks; the bundle defines them. The reference converts values that are
// hard to round (ties both ways, one unit off them, overflow, subnormals,
// NaNs, f64 values just off the f32 grid, which must not round twice) and
// counts the results that differ from the exact rounding the script
// computes with fractions. On a GPU, scripts/gpu-check.sh runs the same
// entry against the chip's own conversions.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/bf16_cases.py %t | FileCheck %s --check-prefix=COUNT
// RUN: threadbind-compile %s --emit bundle -o %t/bf16.so
// RUN: threadbind-run %t/bf16.so --entry round_to_bf16 --input 0=%t/x.npy --input 1=%t/d.npy --input 2=%t/ex.npy --input 3=%t/ed.npy --size 208 --reference-only --print | FileCheck %s
// COUNT: 208
// CHECK: reference arg6: sum 0,
// CHECK-SAME: first [0, 0]

// y = bf16(x), z = bf16(d); wrong[0] counts the y that are not ex, wrong[1]
// the z that are not ed (0xFFFF in ex/ed: the result must be a NaN).
func.func @round_to_bf16(%x: memref<?xf32>, %d: memref<?xf64>,
                         %ex: memref<?xi16>, %ed: memref<?xi16>,
                         %y: memref<?xbf16>, %z: memref<?xbf16>,
                         %wrong: memref<2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %counts:2 = scf.parallel (%i) = (%c0) to (%n) step (%c1)
      init (%zero, %zero) -> (i32, i32) {
    %a = memref.load %x[%i] : memref<?xf32>
    %b = memref.load %d[%i] : memref<?xf64>
    %ra = arith.truncf %a : f32 to bf16
    %rb = arith.truncf %b : f64 to bf16
    memref.store %ra, %y[%i] : memref<?xbf16>
    memref.store %rb, %z[%i] : memref<?xbf16>
    %wa = func.call @differs(%ra, %ex, %i) : (bf16, memref<?xi16>, index) -> i32
    %wb = func.call @differs(%rb, %ed, %i) : (bf16, memref<?xi16>, index) -> i32
    scf.reduce(%wa, %wb : i32, i32) {
    ^bb0(%p: i32, %q: i32):
      %s = arith.addi %p, %q : i32
      scf.reduce.return %s : i32
    }, {
    ^bb0(%p: i32, %q: i32):
      %s = arith.addi %p, %q : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %counts#0, %wrong[%c0] : memref<2xi32>
  memref.store %counts#1, %wrong[%c1] : memref<2xi32>
  return
}

// 1 where `r`'s bits are not expect[i] (a NaN where that is 0xFFFF).
func.func private @differs(%r: bf16, %expect: memref<?xi16>, %i: index) -> i32 {
  %bits = arith.bitcast %r : bf16 to i16
  %want = memref.load %expect[%i] : memref<?xi16>
  %nanMark = arith.constant -1 : i16
  %isNaN = arith.cmpf uno, %r, %r : bf16
  %wantNaN = arith.cmpi eq, %want, %nanMark : i16
  %same = arith.cmpi eq, %bits, %want : i16
  %ok = arith.select %wantNaN, %isNaN, %same : i1
  %one = arith.constant 1 : i32
  %none = arith.constant 0 : i32
  %w = arith.select %ok, %none, %one : i32
  return %w : i32
}
