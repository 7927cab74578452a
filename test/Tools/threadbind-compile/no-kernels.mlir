// A program whose only parallel loop runs no iterations is valid: the loop
// folds away before mapping, threadbind-compile warns at it, and every
// output has its usual form, with no kernel in it. The bundle's entry runs
// (its reference too) and writes nothing.
// RUN: threadbind-compile %s --emit mlir -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// RUN: threadbind-compile %s --emit ptx -o %t.ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.ptx.manifest.json
// RUN: threadbind-compile %s --emit bundle -o %t.so 2>/dev/null
// RUN: %threadbind_runner %t.so --entry zero_trip --size 7 --reference-only | FileCheck %s --check-prefix=RUNNER
// --threads-per-block=auto has no kernel to weigh, and says so.
// RUN: threadbind-compile %s --threads-per-block=auto --emit mlir -o %t.auto.mlir 2>&1 | FileCheck %s --check-prefix=AUTO

// WARN: no-kernels.mlir:[[@LINE+13]]:3: warning: no parallel loop is left to map: each runs no iteration, or computes nothing that is used, and was folded away; the program has no kernels
// WARN-NOT: warning
// AUTO: remark: --threads-per-block=auto: no loop became a kernel, so there is nothing to weigh; 256 threads a block
// MLIR-NOT: gpu.launch
// MLIR: gpu.module @threadbind_kernels
// PTX: .target sm_90
// PTX-NOT: .entry
// MANIFEST: "kernels": []
// RUNNER: ran zero_trip_reference on the CPU
func.func @zero_trip(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c0) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}

// A reduction whose result is unused computes nothing.
func.func @unused_sum(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    %v = memref.load %a[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return
}
