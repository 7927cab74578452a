// Conflicting options: --grid-policy=cover with --tail=pad on memrefs that
// are not padded (no threadbind.padded_to, not allocated by the function).
// Padding is not possible, so the bounds check must stay: threads past the
// end still skip the body, and the run prints what the original prints
// for an extent that is no multiple of the block.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks="strategy=pad remarks" > %t.mapped.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s --grid-policy=cover --tail=pad -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @scale
// MAPPED: gpu.launch
// MAPPED: scf.if
// MAPPED: threadbind.tail_guard
// REMARK: remark: bounds check kept: no padding
// PTX: .entry scale_kernel
// PTX: setp.{{.*}}.s64
// CHECK: sizes = [300]
// CHECK-NEXT: [0,  2,  4,

func.func @scale(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %a = memref.alloc(%c300) : memref<?xf32>
  scf.for %i = %c0 to %c300 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %a[%i] : memref<?xf32>
  }
  call @scale(%a, %c300) : (memref<?xf32>, index) -> ()
  %u = memref.cast %a : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
