// 0-size memrefs in two dimensions: memref<0x4xf32> and memref<4x0xf32>,
// 2-D loops over their shapes with the empty extent passed in at run time
// (a static 0 would fold the loop away before mapping). The launches run
// no iteration; a 2x4 memref next to them is written in full.
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

// MAPPED-LABEL: func.func @empty_2d
// MAPPED-COUNT-3: gpu.launch

func.func @empty_2d(%rows: memref<0x4xf32>, %cols: memref<4x0xf32>, %full: memref<2x4xf32>, %zero: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%zero, %c4) step (%c1, %c1) {
    memref.store %one, %rows[%i, %j] : memref<0x4xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %zero) step (%c1, %c1) {
    memref.store %one, %cols[%i, %j] : memref<4x0xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c4) step (%c1, %c1) {
    memref.store %one, %full[%i, %j] : memref<2x4xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [2, 4]
// CHECK-NEXT: {{\[}}[1,   1,   1,   1],
// CHECK-NEXT: [1,   1,   1,   1]]
func.func @main() {
  %c0 = arith.constant 0 : index
  %rows = memref.alloc() : memref<0x4xf32>
  %cols = memref.alloc() : memref<4x0xf32>
  %full = memref.alloc() : memref<2x4xf32>
  call @empty_2d(%rows, %cols, %full, %c0) : (memref<0x4xf32>, memref<4x0xf32>, memref<2x4xf32>, index) -> ()
  %u = memref.cast %full : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %rows : memref<0x4xf32>
  memref.dealloc %cols : memref<4x0xf32>
  memref.dealloc %full : memref<2x4xf32>
  return
}
