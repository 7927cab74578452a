// scf.forall, affine.parallel (non-zero lower bound, step 2) and
// linalg.generic on memrefs, bound through threadbind-map-to-gpu and run on
// the CPU through the gpu.launch emulation, print what the originals print.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-normalize %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.mapped
// RUN: diff %t.ref %t.mapped

// MAPPED-LABEL: func.func @forall
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @affine_parallel
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @linalg_add
// MAPPED: gpu.launch
// MAPPED-LABEL: func.func @main
// MAPPED-NOT: gpu.launch

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @forall(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %m: index, %n: index) {
  %f = arith.constant 3.0 : f32
  scf.forall (%i, %j) in (%m, %n) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @affine_parallel(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %m: index, %n: index) {
  %one = arith.constant 1.0 : f32
  affine.parallel (%i, %j) = (1, 0) to (%m, %n) step (2, 1) {
    %x = affine.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.addf %x, %one : f32
    affine.store %y, %out[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @linalg_add(%a: memref<?x?xf32>, %out: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %a : memref<?x?xf32>, memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @reset(%buf: memref<?x?xf32>, %m: index, %n: index, %base: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %r = arith.muli %i, %c10 : index
      %v = arith.addi %r, %j : index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f32
      %w = arith.addf %vf, %base : f32
      memref.store %w, %buf[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// CHECK: sizes = [5, 3]
// CHECK-NEXT: {{\[}}[0,   3,   6],
// CHECK: sizes = [5, 3]
// CHECK-NEXT: {{\[}}[-1000,   -999,   -998],
// CHECK-NEXT: [11,   12,   13],
// CHECK: sizes = [5, 3]
// CHECK-NEXT: {{\[}}[0,   2,   4],
func.func @main() {
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %minus = arith.constant -1000.0 : f32
  %a = memref.alloc(%c5, %c3) : memref<?x?xf32>
  %out = memref.alloc(%c5, %c3) : memref<?x?xf32>
  %u = memref.cast %out : memref<?x?xf32> to memref<*xf32>
  call @reset(%a, %c5, %c3, %zero) : (memref<?x?xf32>, index, index, f32) -> ()
  call @reset(%out, %c5, %c3, %minus) : (memref<?x?xf32>, index, index, f32) -> ()
  call @forall(%a, %out, %c5, %c3) : (memref<?x?xf32>, memref<?x?xf32>, index, index) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @reset(%out, %c5, %c3, %minus) : (memref<?x?xf32>, index, index, f32) -> ()
  call @affine_parallel(%a, %out, %c5, %c3) : (memref<?x?xf32>, memref<?x?xf32>, index, index) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @reset(%out, %c5, %c3, %minus) : (memref<?x?xf32>, index, index, f32) -> ()
  call @linalg_add(%a, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}
