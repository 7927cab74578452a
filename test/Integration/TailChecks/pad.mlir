// Kernels whose bounds checks gave way to padding, run on the CPU through
// the gpu.launch emulation, print what the originals print. The block is
// 256 threads, so the sizes are 3T-1, 3T, 3T+1, 2T+1, T-1, 1 and 0. Each
// padded buffer is followed by 256 sentinel elements: a thread that ran
// past the padding would overwrite one, and the count of intact sentinels
// (and of the untouched padding of a buffer that is only read) is printed
// with the results.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks=strategy=pad > %t.pad.mlir
// RUN: FileCheck %s --check-prefix=PAD < %t.pad.mlir
// RUN: threadbind-opt %t.pad.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.pad
// RUN: diff %t.ref %t.pad

// @scale and the owned buffer's kernel run without checks; the copy into
// the unpadded output keeps its check.
// PAD-LABEL: func.func @scale
// PAD: gpu.launch
// PAD-NOT: scf.if
// PAD: gpu.terminator
// PAD-LABEL: func.func @owned
// PAD: gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xf32>
// PAD: gpu.launch
// PAD-NOT: scf.if
// PAD: gpu.terminator
// PAD: gpu.launch
// PAD: scf.if
// PAD-NOT: } else {
// PAD: gpu.terminator

// y[i] = 2 x[i] + i
func.func @scale(%x: memref<?xf32> {threadbind.padded_to = 256},
                 %y: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %d = arith.mulf %v, %two : f32
    %r = arith.addf %d, %fi : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// out[i] = 3i + 1, through a scratch buffer the function owns.
func.func @owned(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %one = arith.constant 1.0 : f32
  %n = memref.dim %out, %c0 : memref<?xf32>
  %t = memref.alloc(%n) : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %v = arith.mulf %fi, %three : f32
    memref.store %v, %t[%i] : memref<?xf32>
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %t[%i] : memref<?xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %out[%i] : memref<?xf32>
  }
  memref.dealloc %t : memref<?xf32>
  return
}

func.func @sum(%y: memref<?xf32>, %from: index, %to: index) -> f32 {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %from to %to step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %y[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %sum : f32
}

// How many of buf[from, to) still hold the sentinel.
func.func @intact(%buf: memref<?xf32>, %from: index, %to: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sentinel = arith.constant -7.0 : f32
  %count = scf.for %i = %from to %to step %c1 iter_args(%acc = %c0) -> index {
    %v = memref.load %buf[%i] : memref<?xf32>
    %same = arith.cmpf oeq, %v, %sentinel : f32
    %inc = arith.addi %acc, %c1 : index
    %next = arith.select %same, %inc, %acc : index
    scf.yield %next : index
  }
  return %count : index
}

// A buffer of n elements padded to a multiple of 256, then 256 more, all
// sentinels; returns it and the n-element view a caller passes on.
func.func @padded_buffer(%n: index) -> (memref<?xf32>, memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %sentinel = arith.constant -7.0 : f32
  %blocks = arith.ceildivui %n, %c256 : index
  %padded = arith.muli %blocks, %c256 : index
  %total = arith.addi %padded, %c256 : index
  %buf = memref.alloc(%total) : memref<?xf32>
  scf.for %i = %c0 to %total step %c1 {
    memref.store %sentinel, %buf[%i] : memref<?xf32>
  }
  %view = memref.reinterpret_cast %buf to offset: [0], sizes: [%n], strides: [1]
      : memref<?xf32> to memref<?xf32>
  return %buf, %view : memref<?xf32>, memref<?xf32>
}

func.func @check(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %blocks = arith.ceildivui %n, %c256 : index
  %padded = arith.muli %blocks, %c256 : index
  %total = arith.addi %padded, %c256 : index
  %xbuf, %x = call @padded_buffer(%n) : (index) -> (memref<?xf32>, memref<?xf32>)
  %ybuf, %y = call @padded_buffer(%n) : (index) -> (memref<?xf32>, memref<?xf32>)
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    memref.store %fi, %x[%i] : memref<?xf32>
  }
  call @scale(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  %s = call @sum(%y, %c0, %n) : (memref<?xf32>, index, index) -> f32
  // x is only read: its padding and sentinels are all intact. y's padding
  // may hold anything; its sentinels past the padding may not change.
  %xi = call @intact(%xbuf, %n, %total) : (memref<?xf32>, index, index) -> index
  %yi = call @intact(%ybuf, %padded, %total) : (memref<?xf32>, index, index) -> index
  %obuf, %out = call @padded_buffer(%n) : (index) -> (memref<?xf32>, memref<?xf32>)
  call @owned(%out) : (memref<?xf32>) -> ()
  %os = call @sum(%out, %c0, %n) : (memref<?xf32>, index, index) -> f32
  %oi = call @intact(%obuf, %n, %total) : (memref<?xf32>, index, index) -> index
  vector.print %n : index
  vector.print %s : f32
  vector.print %xi : index
  vector.print %yi : index
  vector.print %os : f32
  vector.print %oi : index
  memref.dealloc %xbuf : memref<?xf32>
  memref.dealloc %ybuf : memref<?xf32>
  memref.dealloc %obuf : memref<?xf32>
  return
}

// n = 767: y sums 3i = 3 * 767 * 766 / 2; x's padding (1) and sentinels
// (256) are intact, and so are y's sentinels; out sums 3i + 1; its
// padding, unpadded as an argument, is never touched.
// CHECK: 767
// CHECK-NEXT: 881283
// CHECK-NEXT: 257
// CHECK-NEXT: 256
// CHECK-NEXT: 882050
// CHECK-NEXT: 257
func.func @main() {
  %sizes = memref.get_global @sizes : memref<7xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %k = %c0 to %c7 step %c1 {
    %n = memref.load %sizes[%k] : memref<7xindex>
    func.call @check(%n) : (index) -> ()
  }
  return
}

memref.global "private" constant @sizes : memref<7xindex> =
    dense<[767, 768, 769, 513, 255, 1, 0]>
