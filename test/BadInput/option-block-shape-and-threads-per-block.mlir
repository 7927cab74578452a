// Conflicting options: --block-shape=64,2 together with
// --threads-per-block=512. The explicit shape wins (as documented: it
// overrides threads-per-block) for the loop and the grid cap; the run
// prints what the original prints.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=64,2 threads-per-block=512 max-blocks=3" > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s --block-shape=64,2 --threads-per-block=512 -o %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.ptx.manifest.json

// MAPPED-LABEL: func.func @add
// MAPPED-DAG: %[[X:.*]] = arith.constant 64 : index
// MAPPED-DAG: %[[Y:.*]] = arith.constant 2 : index
// MAPPED: gpu.launch blocks({{.*}}) threads({{.*}}) in ({{.*}} = %[[X]], {{.*}} = %[[Y]], {{.*}} = %c1{{.*}})
// MANIFEST: "block": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 1
// CHECK: sizes = [3, 5]
// CHECK-NEXT: {{\[}}[0,   2,   4,   6,   8],
// CHECK-NEXT: [10,   12,   14,   16,   18],
// CHECK-NEXT: [20,   22,   24,   26,   28]]

func.func @add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%i, %j] : memref<?x?xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %b[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %a = memref.alloc(%c3, %c5) : memref<?x?xf32>
  %b = memref.alloc(%c3, %c5) : memref<?x?xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %r = arith.muli %i, %c5 : index
      %s = arith.addi %r, %j : index
      %v = arith.index_cast %s : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %a[%i, %j] : memref<?x?xf32>
      memref.store %f, %b[%i, %j] : memref<?x?xf32>
    }
  }
  call @add(%a, %b, %c3, %c5) : (memref<?x?xf32>, memref<?x?xf32>, index, index) -> ()
  %u = memref.cast %b : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
