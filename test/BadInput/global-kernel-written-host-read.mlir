// Refused: a mutable memref.global that a kernel writes and host code
// reads. Each kernel works on the copy of the global that outlining puts
// in device memory, which the host never sees: before, this compiled
// without a word and the host printed the global's initial value. The
// same for a global the host writes and a kernel reads (the kernel would
// read the initial value), while a global both sides only read, or a
// constant one, compiles.
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-sink-globals -verify-diagnostics -o /dev/null

memref.global "private" @sums : memref<4xf32> = dense<0.0>
memref.global "private" @scale : memref<1xf32> = dense<1.0>
memref.global "private" @read_only : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global "private" constant @table : memref<4xf32> = dense<[5.0, 6.0, 7.0, 8.0]>

func.func private @consume(memref<4xf32>)

func.func @fill(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // CHECK-DAG: .mlir:[[@LINE+2]]:8: note: the kernel's use of @sums
  // expected-note @below {{the kernel's use of @sums}}
  %g = memref.get_global @sums : memref<4xf32>
  // CHECK-DAG: .mlir:[[@LINE+2]]:8: note: the kernel's use of @scale
  // expected-note @below {{the kernel's use of @scale}}
  %s = memref.get_global @scale : memref<1xf32>
  %r = memref.get_global @read_only : memref<4xf32>
  %t = memref.get_global @table : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %a[%i] : memref<4xf32>
    %k = memref.load %s[%c0] : memref<1xf32>
    %y = memref.load %r[%i] : memref<4xf32>
    %z = memref.load %t[%i] : memref<4xf32>
    %xk = arith.mulf %x, %k : f32
    %xy = arith.addf %xk, %y : f32
    %v = arith.addf %xy, %z : f32
    memref.store %v, %g[%i] : memref<4xf32>
  }
  return
}

func.func @report() {
  // CHECK-DAG: .mlir:[[@LINE+2]]:8: error: global @sums is used here on the host and written by a kernel, but kernels work on a copy of it in device memory that host code neither sees nor updates; pass the data to the kernel as a memref argument instead
  // expected-error @below {{global @sums is used here on the host and written by a kernel}}
  %g = memref.get_global @sums : memref<4xf32>
  call @consume(%g) : (memref<4xf32>) -> ()
  // Both sides only read: the copies agree.
  %r = memref.get_global @read_only : memref<4xf32>
  %t = memref.get_global @table : memref<4xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %r[%c0] : memref<4xf32>
  %y = memref.load %t[%c0] : memref<4xf32>
  return
}

func.func @set_scale(%k: f32) {
  %c0 = arith.constant 0 : index
  // CHECK-DAG: .mlir:[[@LINE+2]]:8: error: global @scale is written here on the host and read by a kernel
  // expected-error @below {{global @scale is written here on the host and read by a kernel}}
  %s = memref.get_global @scale : memref<1xf32>
  call @consume_scale(%s) : (memref<1xf32>) -> ()
  return
}

func.func private @consume_scale(memref<1xf32>)
