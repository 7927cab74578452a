// A function with one loop that can be bound and one that cannot is left
// exactly as it was; another function in the module is still mapped.
// RUN: not threadbind-opt %s -threadbind-map-loops-to-threads -mlir-print-ir-after-failure 2>&1 | FileCheck %s

// Options outside the hardware limits are rejected before any IR changes.
// RUN: not threadbind-opt %s -threadbind-map-loops-to-threads=block-shape=64,32 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not threadbind-opt %s -threadbind-map-loops-to-threads=threads-per-block=2048 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not threadbind-opt %s -threadbind-map-loops-to-threads=block-shape=1,1,128 2>&1 | FileCheck %s --check-prefix=ZDIM
// RUN: not threadbind-opt %s -threadbind-map-loops-to-threads=dim-order=0,0 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not threadbind-opt %s -threadbind-map-loops-to-threads=grid-policy=diagonal 2>&1 | FileCheck %s --check-prefix=POLICY

// SHAPE: threadbind-map-loops-to-threads: block-shape has 2048 threads, more than 1024
// THREADS: threads-per-block = 2048 is outside [1, 1024]
// ZDIM: block-shape[2] = 128 is outside [1, 64]
// ORDER: error: 'scf.parallel' op dim-order 0 is not a distinct dimension of this 1-D loop
// POLICY: Cannot find option named 'diagonal'

// CHECK: error: cannot run on the device: 'func.call' calls a host function
// CHECK: IR Dump After MapLoopsToThreadsPass Failed
// CHECK-LABEL: func.func @mixed
// CHECK-NOT: gpu.launch
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: func.call @host_helper
// CHECK-LABEL: func.func @fine
// CHECK: gpu.launch
// CHECK-NOT: scf.parallel
func.func private @host_helper(f32) -> f32

func.func @mixed(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = func.call @host_helper(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

func.func @fine(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
  }
  return
}
