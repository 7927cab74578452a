// Valid but unusual: an scf.execute_region with several blocks and
// cf.cond_br in the loop body. It maps and runs as the original does.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=max-blocks=3 > %t.mapped.mlir
// RUN: FileCheck %s --check-prefix=MAPPED < %t.mapped.mlir
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// MAPPED-LABEL: func.func @absolute
// MAPPED: gpu.launch
// MAPPED: scf.execute_region
// MAPPED: cf.cond_br
// PTX: .entry

func.func @absolute(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = scf.execute_region -> f32 {
      %neg = arith.cmpf olt, %x, %zero : f32
      cf.cond_br %neg, ^flip, ^keep
    ^flip:
      %m = arith.negf %x : f32
      scf.yield %m : f32
    ^keep:
      scf.yield %x : f32
    }
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: sizes = [6]
// CHECK-NEXT: [3,  2,  1,  0,  1,  2]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %three = arith.constant 3.0 : f32
  %a = memref.alloc(%c6) : memref<?xf32>
  scf.for %i = %c0 to %c6 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    %d = arith.subf %f, %three : f32
    memref.store %d, %a[%i] : memref<?xf32>
  }
  call @absolute(%a, %c6) : (memref<?xf32>, index) -> ()
  %u = memref.cast %a : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  return
}
