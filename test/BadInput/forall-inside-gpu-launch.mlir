// An scf.forall inside a hand-written gpu.launch: normalisation still turns
// it into an scf.parallel, and the mapping leaves that in the launch.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @f
// MAPPED-COUNT-1: gpu.launch
// MAPPED-NOT: scf.forall
// MAPPED: scf.parallel
// MAPPED-NOT: gpu.launch
// PTX: .entry f_kernel
// CHECK: [0,  3,  6,  9,  12]
// CHECK: [0,  1,  2,  3,  4]

func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i) in (%n) {
      %x = memref.load %a[%i] : memref<?xf32>
      %y = arith.mulf %x, %three : f32
      memref.store %y, %a[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %a = memref.alloc(%c5) : memref<?xf32>
  %b = memref.alloc(%c5) : memref<?xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %a[%i] : memref<?xf32>
    memref.store %f, %b[%i] : memref<?xf32>
  }
  call @f(%a, %b, %c5) : (memref<?xf32>, memref<?xf32>, index) -> ()
  %ua = memref.cast %a : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  %ub = memref.cast %b : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
