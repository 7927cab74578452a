// Barriers and all-reduces inside scf.for loops of the launch body: the
// host runs each loop once for the block, and within an iteration every
// thread finishes the code before a barrier before any thread goes on.
// Each thread carries a value through an outer loop whose trip count
// depends on the block (2 and 3 iterations), publishing it before a
// barrier and reading its next neighbour's after it, then summing the
// block's values with an all-reduce; an inner loop of phases does the same
// with the previous neighbour, weighted by its induction variable. A value
// computed before the loops (the thread's own square) is used after them.
// The expected values come from the same computation in Python, in int32
// arithmetic. Run one thread after another without phases, threads would
// read slots their neighbours had not written yet.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// CHECK: 12232
// CHECK-NEXT: 10725
// CHECK-NEXT: 12072
// CHECK-NEXT: 13585
// CHECK-NEXT: 4030432
// CHECK-NEXT: 3969237
// CHECK-NEXT: 3988620
// CHECK-NEXT: 4049837

func.func @phases(%out: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%slots : memref<4xi32, #gpu.address_space<workgroup>>,
                       %others : memref<4xi32, #gpu.address_space<workgroup>>) {
    %base = arith.muli %bx, %c4 : index
    %me = arith.addi %base, %tx : index
    %mei = arith.index_cast %me : index to i32
    %sq = arith.muli %mei, %mei : i32
    %trips = arith.addi %bx, %c2 : index
    %next = arith.addi %tx, %c1 : index
    %right = arith.remui %next, %c4 : index
    %prev = arith.addi %tx, %c3 : index
    %left = arith.remui %prev, %c4 : index
    %acc = scf.for %it = %c0 to %trips step %c1 iter_args(%a = %mei) -> i32 {
      memref.store %a, %slots[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %slots[%right] : memref<4xi32, #gpu.address_space<workgroup>>
      %s = gpu.all_reduce add %v uniform {} : (i32) -> i32
      %v10 = arith.muli %v, %c10 : i32
      %av = arith.addi %a, %v10 : i32
      %n = arith.addi %av, %s : i32
      gpu.barrier
      %m = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %n) -> i32 {
        memref.store %b, %others[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %w = memref.load %others[%left] : memref<4xi32, #gpu.address_space<workgroup>>
        %j1 = arith.addi %j, %c1 : index
        %ji = arith.index_cast %j1 : index to i32
        %wj = arith.muli %w, %ji : i32
        %bw = arith.addi %b, %wj : i32
        gpu.barrier
        scf.yield %bw : i32
      }
      scf.yield %m : i32
    }
    %r = arith.addi %acc, %sq : i32
    memref.store %r, %out[%me] : memref<8xi32>
    gpu.terminator
  }
  return
}

func.func @main() {
  %out = memref.alloc() : memref<8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  call @phases(%out) : (memref<8xi32>) -> ()
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %out[%i] : memref<8xi32>
    vector.print %v : i32
  }
  memref.dealloc %out : memref<8xi32>
  return
}
