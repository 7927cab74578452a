// A barrier splits a launch into phases that every thread finishes before
// any thread starts the next: each thread reads its neighbour's value,
// written before the barrier, and a value computed before the barrier (the
// thread's own square) is used after it. Run one thread after another
// without phases, thread 0 would read its neighbour's slot before that
// thread wrote it.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// Block 0: squares 0 1 4 9, each plus the next thread's (wrapping) value
// times 10; block 1 the same with 4 to 7.
// CHECK: 10
// CHECK-NEXT: 21
// CHECK-NEXT: 34
// CHECK-NEXT: 9
// CHECK-NEXT: 66
// CHECK-NEXT: 85
// CHECK-NEXT: 106
// CHECK-NEXT: 89

func.func @neighbours(%out: memref<8xi32>, %scratch: memref<8xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c4 : index
    %me = arith.addi %base, %tx : index
    %mei = arith.index_cast %me : index to i32
    %sq = arith.muli %mei, %mei : i32
    memref.store %mei, %scratch[%me] : memref<8xi32>
    gpu.barrier
    %next = arith.addi %tx, %c1 : index
    %wrapped = arith.remui %next, %c4 : index
    %other = arith.addi %base, %wrapped : index
    %v = memref.load %scratch[%other] : memref<8xi32>
    %scaled = arith.muli %v, %c10 : i32
    %r = arith.addi %sq, %scaled : i32
    memref.store %r, %out[%me] : memref<8xi32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %out = memref.alloc() : memref<8xi32>
  %scratch = memref.alloc() : memref<8xi32>
  %zero = arith.constant 0 : i32
  %c0_ = arith.constant 0 : index
  %c1_ = arith.constant 1 : index
  %c8_ = arith.constant 8 : index
  scf.for %i = %c0_ to %c8_ step %c1_ {
    memref.store %zero, %scratch[%i] : memref<8xi32>
  }
  call @neighbours(%out, %scratch) : (memref<8xi32>, memref<8xi32>) -> ()
  scf.for %i = %c0_ to %c8_ step %c1_ {
    %v = memref.load %out[%i] : memref<8xi32>
    vector.print %v : i32
  }
  return
}
