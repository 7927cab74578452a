// Reductions whose results feed code the reduction's kernel cannot take
// run in parallel and come back to the host: a sum that a later loop
// divides by (srad's image statistics), a dot product carried by a host
// loop (durbin), and a sum combined with a value loaded after the loop
// (trisolv). Checked in CPU emulation against the original under the
// default options, a cover grid with 64-thread blocks, and a block shape.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=remarks 2>&1 >%t.default.mlir | FileCheck %s --check-prefix=BOUND
// RUN: FileCheck %s --check-prefix=HOST < %t.default.mlir
// RUN: threadbind-opt %t.default.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.default
// RUN: diff %t.ref %t.default
// RUN: threadbind-opt %s -threadbind-map-to-gpu="grid-policy=cover threads-per-block=64" > %t.cover.mlir
// RUN: threadbind-opt %t.cover.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.cover
// RUN: diff %t.ref %t.cover
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4 max-blocks=3" > %t.shape.mlir
// RUN: threadbind-opt %t.shape.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.shape
// RUN: diff %t.ref %t.shape
// RUN: threadbind-compile %s --emit bundle -o %t.so
// BOUND-COUNT-3: remark: the reduced values come back to the host
// BOUND-NOT: cannot be bound to the GPU in parallel
// The value read back is loaded on the host, never in a kernel.
// HOST-LABEL: func.func @normalize
// HOST: %[[BACK:.*]] = memref.alloca() {threadbind.host_readback}
// HOST: gpu.memcpy async [%{{.*}}] %[[BACK]]
// HOST-NEXT: gpu.wait
// HOST-NEXT: memref.load %[[BACK]]
// CHECK: normalized 2502.75
// CHECK: carried 669157
// CHECK: solved 3{{$}}

func.func @normalize(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  %eighth = arith.constant 0.125 : f32
  %scale = arith.mulf %s, %eighth : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %scale : f32
    memref.store %w, %y[%i] : memref<?xf32>
  }
  return
}

// Three steps, each adding the dot product of x and y to every y.
func.func @carried(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %last = scf.for %t = %c0 to %c3 step %c1 iter_args(%prev = %zero) -> f32 {
    %d = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
      %a = memref.load %x[%i] : memref<?xf32>
      %b = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      scf.reduce(%p : f32) {
      ^bb0(%u: f32, %v: f32):
        %r = arith.addf %u, %v : f32
        scf.reduce.return %r : f32
      }
    }
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %b = memref.load %y[%i] : memref<?xf32>
      %c = arith.addf %b, %prev : f32
      memref.store %c, %y[%i] : memref<?xf32>
    }
    scf.yield %d : f32
  }
  memref.store %last, %y[%c0] : memref<?xf32>
  return
}

// x[k] = b[k] - sum_{j<k} x[j], k sequential.
func.func @solve(%b: memref<?xf32>, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %b, %c0 : memref<?xf32>
  scf.for %k = %c0 to %n step %c1 {
    %s = scf.parallel (%j) = (%c0) to (%k) step (%c1) init (%zero) -> f32 {
      %v = memref.load %x[%j] : memref<?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%u: f32, %w: f32):
        %r = arith.addf %u, %w : f32
        scf.reduce.return %r : f32
      }
    }
    %bk = memref.load %b[%k] : memref<?xf32>
    %d = arith.subf %bk, %s : f32
    memref.store %d, %x[%k] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %n = arith.constant 37 : index
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  %z = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.remui %i, %c5 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    memref.store %rf, %x[%i] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    memref.store %one, %y[%i] : memref<?xf32>
    %alt = arith.addf %rf, %one : f32
    memref.store %alt, %z[%i] : memref<?xf32>
  }
  call @normalize(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  %s1 = call @checksum(%y) : (memref<?xf32>) -> f32
  vector.print str "normalized "
  vector.print %s1 : f32
  call @carried(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  %s2 = call @checksum(%y) : (memref<?xf32>) -> f32
  vector.print str "carried "
  vector.print %s2 : f32
  call @solve(%z, %x) : (memref<?xf32>, memref<?xf32>) -> ()
  %s3 = call @checksum(%x) : (memref<?xf32>) -> f32
  vector.print str "solved "
  vector.print %s3 : f32
  return
}

// A weighted sum of the elements, on the host of @main.
func.func private @checksum(%a: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %a[%k] : memref<?xf32>
    %w = arith.remui %k, %c7 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %wf = arith.sitofp %wi : i32 to f32
    %p = arith.mulf %v, %wf : f32
    %t = arith.addf %acc, %p : f32
    scf.yield %t : f32
  }
  return %s : f32
}
