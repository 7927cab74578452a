// Unsupported op in a loop body: a call to one of two functions that call
// each other. Inlining would bring a call back at every level, so the call
// stays host code and is an error at the call, with nothing inlined.
// RUN: threadbind-opt %s -threadbind-inline-loop-calls | FileCheck %s --check-prefix=KEPT
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

// KEPT-LABEL: func.func @calls_even
// KEPT: scf.parallel
// KEPT-NEXT: memref.load
// KEPT-NEXT: func.call @even

func.func @even(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %done = arith.cmpi sle, %x, %zero : i32
  %r = scf.if %done -> i32 {
    scf.yield %one : i32
  } else {
    %y = arith.subi %x, %one : i32
    %z = func.call @odd(%y) : (i32) -> i32
    scf.yield %z : i32
  }
  return %r : i32
}

func.func @odd(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %done = arith.cmpi sle, %x, %zero : i32
  %r = scf.if %done -> i32 {
    scf.yield %zero : i32
  } else {
    %y = arith.subi %x, %one : i32
    %z = func.call @even(%y) : (i32) -> i32
    scf.yield %z : i32
  }
  return %r : i32
}

func.func @calls_even(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xi32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'func.call' calls a function that was not inlined into the loop, and a kernel cannot call the host
    // expected-error @below {{cannot run on the device: 'func.call' calls a function that was not inlined into the loop, and a kernel cannot call the host}}
    %y = func.call @even(%x) : (i32) -> i32
    memref.store %y, %a[%i] : memref<?xi32>
  }
  return
}
