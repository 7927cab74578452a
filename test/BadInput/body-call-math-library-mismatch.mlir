// Calls in loop bodies that look like the C math library's but are not:
// the float name on doubles, the double name with a second operand, and a
// name the library lacks. Only the library's own signatures become math
// ops (c-math-library-calls.mlir); these stay host calls, which the
// mapping refuses, naming each, and threadbind-compile writes nothing.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

func.func private @expf(f64) -> f64
func.func private @exp(f64, f64) -> f64
func.func private @fast_expf(f32) -> f32

func.func @float_name_on_doubles(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf64>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'func.call' calls a host function
    // expected-error @below {{cannot run on the device: 'func.call' calls a host function}}
    %y = func.call @expf(%x) : (f64) -> f64
    memref.store %y, %a[%i] : memref<?xf64>
  }
  return
}

func.func @two_operands(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf64>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'func.call' calls a host function
    // expected-error @below {{cannot run on the device: 'func.call' calls a host function}}
    %y = func.call @exp(%x, %x) : (f64, f64) -> f64
    memref.store %y, %a[%i] : memref<?xf64>
  }
  return
}

func.func @not_the_library(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'func.call' calls a host function
    // expected-error @below {{cannot run on the device: 'func.call' calls a host function}}
    %y = func.call @fast_expf(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
