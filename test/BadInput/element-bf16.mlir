// Unusual element type: memref<?xbf16> with bf16 arithmetic in the loop
// body (native on sm_90). The values are small integers, exact in bf16.
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
// A bundle links: its CPU reference does bf16 arithmetic in f32 with
// integer-op conversions (LLVM's x86 truncation calls __truncsfbf2, which
// Debian 12's libgcc lacks), and rounds as bf16 does.
// RUN: threadbind-compile %s --emit bundle -o %t.so
// RUN: threadbind-run %t.so --entry axpy --size 6 --scalar 2=6 --reference-only --print | FileCheck %s --check-prefix=REF
// REF: reference arg1: sum
// RUN: %if ptxas %{ threadbind-compile %s --emit cubin -o %t.cubin %}

// MAPPED-LABEL: func.func @axpy
// MAPPED: gpu.launch
// MAPPED: arith.mulf {{.*}} : bf16
// CHECK: sizes = [6]
// CHECK-NEXT: [1,  4,  7,  10,  13,  16]

func.func @axpy(%x: memref<?xbf16>, %y: memref<?xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : bf16
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %x[%i] : memref<?xbf16>
    %b = memref.load %y[%i] : memref<?xbf16>
    %p = arith.mulf %a, %three : bf16
    %s = arith.addf %p, %b : bf16
    memref.store %s, %y[%i] : memref<?xbf16>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1.0 : bf16
  %x = memref.alloc(%c6) : memref<?xbf16>
  %y = memref.alloc(%c6) : memref<?xbf16>
  scf.for %k = %c0 to %c6 step %c1 {
    %v = arith.index_cast %k : index to i32
    %f = arith.sitofp %v : i32 to bf16
    memref.store %f, %x[%k] : memref<?xbf16>
    memref.store %one, %y[%k] : memref<?xbf16>
  }
  call @axpy(%x, %y, %c6) : (memref<?xbf16>, memref<?xbf16>, index) -> ()
  %out = memref.alloc(%c6) : memref<?xf32>
  scf.for %k = %c0 to %c6 step %c1 {
    %b = memref.load %y[%k] : memref<?xbf16>
    %w = arith.extf %b : bf16 to f32
    memref.store %w, %out[%k] : memref<?xf32>
  }
  %u = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
