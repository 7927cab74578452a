// Unusual element type: memref<?xcomplex<f32>>, squared with complex.mul
// in the loop body (complex lowers to a struct of two floats on both
// sides). The real and imaginary parts are printed.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks -threadbind-widen-accesses -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-compile %s -o %t.ptx
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// MAPPED-LABEL: func.func @square
// MAPPED: gpu.launch
// MAPPED: complex.mul
// CHECK: sizes = [2, 4]
// CHECK-NEXT: {{\[}}[0,   -1,   0,   3],
// CHECK-NEXT: [-2,   0,   2,   4]]

func.func @square(%a: memref<?xcomplex<f32>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %z = memref.load %a[%i] : memref<?xcomplex<f32>>
    %w = complex.mul %z, %z : complex<f32>
    memref.store %w, %a[%i] : memref<?xcomplex<f32>>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// z = (k - 1) + 1i for k = 0..3 squares to (k-1)^2 - 1 + 2(k-1)i.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc(%c4) : memref<?xcomplex<f32>>
  scf.for %k = %c0 to %c4 step %c1 {
    %v = arith.index_cast %k : index to i32
    %f = arith.sitofp %v : i32 to f32
    %re = arith.subf %f, %one : f32
    %z = complex.create %re, %one : complex<f32>
    memref.store %z, %a[%k] : memref<?xcomplex<f32>>
  }
  call @square(%a, %c4) : (memref<?xcomplex<f32>>, index) -> ()
  %out = memref.alloc() : memref<2x4xf32>
  scf.for %k = %c0 to %c4 step %c1 {
    %z = memref.load %a[%k] : memref<?xcomplex<f32>>
    %re = complex.re %z : complex<f32>
    %im = complex.im %z : complex<f32>
    memref.store %re, %out[%c0, %k] : memref<2x4xf32>
    memref.store %im, %out[%c1, %k] : memref<2x4xf32>
  }
  %u = memref.cast %out : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
