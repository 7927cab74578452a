// The sequential fallback: what the mappers cannot bind in parallel, and
// host code that touches memory, runs in one-thread kernels; the rest of
// the file is mapped as usual.
// RUN: threadbind-opt %s -threadbind-map-to-gpu="max-blocks=4 remarks" -split-input-file -verify-diagnostics -allow-unregistered-dialect | FileCheck %s
// RUN: not threadbind-opt %s -threadbind-map-to-gpu="max-blocks=4 sequential-fallback=false" -split-input-file -allow-unregistered-dialect -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// A reduction whose combiner region works on f64 (beyond the 32-bit flag
// scheme) runs on one thread with its epilogue; the other loop of the
// function is still mapped in parallel.
// CHECK-LABEL: func.func @unmappable_reduction
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE:[a-z0-9_]+]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// CHECK-NEXT: scf.parallel
// CHECK: scf.reduce
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: gpu.terminator
// STRICT: error: 'scf.reduce' op combiner 0 is a region on 'f64' values
func.func @unmappable_reduction(%x: memref<?xf64>, %out: memref<1xf64>,
                                %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  // expected-warning @below {{cannot be bound to the GPU in parallel, so it runs on one GPU thread: 'scf.reduce' op combiner 0 is a region on 'f64' values}}
  // expected-remark @below {{runs on one GPU thread: all its iterations (a number known at run time) one after another}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    // expected-note @below {{here}}
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %aa = math.absf %a : f64
      %bb = math.absf %b : f64
      %m = arith.maximumf %aa, %bb : f64
      scf.reduce.return %m : f64
    }
  }
  memref.store %r, %out[%c0] : memref<1xf64>
  // expected-remark @below {{bound to gpu.launch}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %y[%i] : memref<?xf64>
  }
  return
}

// -----

// A size read from memory on the host: the load runs in a one-thread
// kernel, the value comes back through device scratch, and the mapped loop
// uses it. The buffer the function allocates for kernels is on the device.
// CHECK-LABEL: func.func @size_from_memory
// CHECK: %[[SCRATCH:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<1xindex>
// CHECK: gpu.launch
// CHECK: %[[N:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<1xindex>
// CHECK: memref.store %[[N]], %[[SCRATCH]]
// CHECK: gpu.terminator
// CHECK: %[[HOST:.*]] = memref.alloca() {threadbind.host_readback} : memref<1xindex>
// CHECK: gpu.memcpy async [%{{.*}}] %[[HOST]], %[[SCRATCH]]
// CHECK: %[[READ:.*]] = memref.load %[[HOST]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[SCRATCH]]
// CHECK: %[[TMP:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[READ]]) : memref<?xf32>
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.dealloc async [%{{.*}}] %[[TMP]]
// STRICT-NOT: error
func.func @size_from_memory(%sizes: memref<1xindex>, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{runs on one GPU thread: host code that reads or writes memref data, which lives on the device}}
  %n = memref.load %sizes[%c0] : memref<1xindex>
  %tmp = memref.alloc(%n) : memref<?xf32>
  // expected-remark @below {{bound to gpu.launch}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    memref.store %v, %tmp[%i] : memref<?xf32>
  }
  // expected-remark @below {{bound to gpu.launch}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %tmp[%i] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  memref.dealloc %tmp : memref<?xf32>
  return
}

// -----

// Host code that prints what it reads: the loop cannot run on the device,
// so each load runs in a kernel of its own and the print stays on the
// host.
// CHECK-LABEL: func.func @print_on_host
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK: memref.load
// CHECK: gpu.terminator
// CHECK: gpu.memcpy
// CHECK: vector.print
// expected-warning @below {{has no parallel loop, so all of its code that touches memory runs on one GPU thread}}
func.func @print_on_host(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-remark @below {{runs on one GPU thread: host code that reads or writes memref data, which lives on the device}}
    %v = memref.load %x[%i] : memref<4xf32>
    vector.print %v : f32
  }
  return
}

// -----

// A loop left to one thread inside host code that prints: the loop and
// the load after it run in a kernel each time round, and the value printed
// comes back.
// CHECK-LABEL: func.func @left_loop_beside_print
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK-NEXT: scf.parallel
// CHECK: memref.load
// CHECK: gpu.terminator
// CHECK: gpu.memcpy
// CHECK: vector.print
// STRICT: error: cannot run in parallel: 'test.opaque' has unknown side effects
func.func @left_loop_beside_print(%x: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %n step %c1 {
    // expected-warning @below {{cannot be bound to the GPU in parallel, so it runs on one GPU thread: cannot run in parallel: 'test.opaque' has unknown side effects}}
    // expected-remark @below {{runs on one GPU thread: all its iterations (a number known at run time) one after another}}
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      // expected-note @below {{here}}
      "test.opaque"() : () -> ()
    }
    %v = memref.load %x[%c0] : memref<?xf32>
    vector.print %v : f32
  }
  return
}

// -----

// The results of a loop left to one thread, used by host code: they come
// back if scalars; a vector cannot, and is refused at the loop.
func.func @vector_result(%x: memref<?xvector<4xf32>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  // expected-warning @below {{cannot be bound to the GPU in parallel}}
  // expected-error @below {{'scf.parallel' must run on the GPU, where memory lives, but host code after it uses its result of type 'vector<4xf32>'; only integers, indices and floats come back}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> vector<4xf32> {
    %v = memref.load %x[%i] : memref<?xvector<4xf32>>
    // expected-note @below {{here}}
    scf.reduce(%v : vector<4xf32>) {
    ^bb0(%a: vector<4xf32>, %b: vector<4xf32>):
      %s = arith.addf %a, %b : vector<4xf32>
      scf.reduce.return %s : vector<4xf32>
    }
  }
  vector.print %r : vector<4xf32>
  return
}
