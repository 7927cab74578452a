// Host code a bundle must compile and run: inline assembly, math ops that
// only libm has on the CPU (erf, cbrt), a subview at a dynamic offset, and
// a @main that another function calls (then it is a helper, not the CPU
// harness a bundle leaves out). Before issue 22 these aborted the host
// object emission ("Inline asm not supported by this streamer"), failed
// the LLVM translation (math, and affine.apply left by expanding the
// subview after lower-affine) or failed to verify (@main erased while
// called).
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit bundle -o %t/host.so
// RUN: threadbind-run %t/host.so --entry with_asm --size 4 --reference-only --print | FileCheck %s --check-prefix=ASM
// RUN: threadbind-run %t/host.so --entry special --size 3 --reference-only --print | FileCheck %s --check-prefix=MATH
// RUN: threadbind-run %t/host.so --entry window --shape 0=10 --scalar 1=4 --reference-only --print | FileCheck %s --check-prefix=WINDOW
// RUN: threadbind-run %t/host.so --entry calls_main --size 2 --reference-only --print | FileCheck %s --check-prefix=MAIN
// RUN: threadbind-run %t/host.so --list | FileCheck %s --check-prefix=LIST

// ASM: reference arg0: sum 4, first [1, 1, 1, 1]
// erf(0.5) + cbrt(8) = 0.5205 + 2 for each element.
// MATH: reference arg0: sum 7.5614{{[0-9]*}}, first [2.5204
// Elements 4 to 6 of 10, a window at a dynamic offset, set to 9.
// WINDOW: reference arg0: sum 27, first [0, 0, 0, 0, 9, 9, 9, 0,
// MAIN: reference arg0: sum 14, first [7, 7]
// LIST-NOT: {{^main}}
// LIST: calls_main(

func.func @with_asm(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  llvm.inline_asm has_side_effects "nop", "" : () -> ()
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %one, %a[%i] : memref<?xf32>
  }
  return
}

func.func @special(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %half = arith.constant 0.5 : f32
  %eight = arith.constant 8.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %e = math.erf %half : f32
    %c = math.cbrt %eight : f32
    %s = arith.addf %e, %c : f32
    memref.store %s, %a[%i] : memref<?xf32>
  }
  return
}

func.func @window(%a: memref<?xf32>, %at: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %nine = arith.constant 9.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %a[%i] : memref<?xf32>
  }
  %w = memref.subview %a[%at] [3] [1]
      : memref<?xf32> to memref<3xf32, strided<[1], offset: ?>>
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    memref.store %nine, %w[%i] : memref<3xf32, strided<[1], offset: ?>>
  }
  return
}

func.func @main() -> i32 {
  %seven = arith.constant 7 : i32
  return %seven : i32
}

func.func @calls_main(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %m = call @main() : () -> i32
  %v = arith.sitofp %m : i32 to f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}
