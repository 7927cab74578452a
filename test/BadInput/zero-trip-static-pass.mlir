// A static zero-trip scf.parallel, (0) to (0), given straight to
// threadbind-map-loops-to-threads (no canonicalization to fold it first):
// it becomes a launch of one block that runs no iteration, and the emulated
// run leaves the memory as it was.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts | %run_cpu > %t.out
// RUN: diff %t.ref %t.out

// MAPPED-LABEL: func.func @nothing
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @main
// MAPPED-NOT: gpu.launch

func.func @nothing(%a: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c0) step (%c1) {
    memref.store %one, %a[%i] : memref<2xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [2]
// CHECK-NEXT: [5,  5]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<2xf32>
  memref.store %five, %a[%c0] : memref<2xf32>
  memref.store %five, %a[%c1] : memref<2xf32>
  call @nothing(%a) : (memref<2xf32>) -> ()
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<2xf32>
  return
}
