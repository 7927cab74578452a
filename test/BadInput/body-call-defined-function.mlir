// Unsupported op in a loop body: a func.call to a function the module
// defines that calls itself. Calls to other defined functions are inlined
// (threadbind-inline-loop-calls); a recursive one stays host code, so the
// call is an error at the call, not a missing symbol in the PTX.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func @countdown(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %done = arith.cmpi sle, %x, %zero : i32
  %r = scf.if %done -> i32 {
    scf.yield %zero : i32
  } else {
    %y = arith.subi %x, %one : i32
    %z = func.call @countdown(%y) : (i32) -> i32
    scf.yield %z : i32
  }
  return %r : i32
}

func.func @calls_recursive(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xi32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'func.call' calls a function that was not inlined into the loop, and a kernel cannot call the host
    // expected-error @below {{cannot run on the device: 'func.call' calls a function that was not inlined into the loop, and a kernel cannot call the host}}
    %y = func.call @countdown(%x) : (i32) -> i32
    memref.store %y, %a[%i] : memref<?xi32>
  }
  return
}
