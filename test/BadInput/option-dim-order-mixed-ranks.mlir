// Valid but unusual: --dim-order=1,0 for a program with a 2-D loop and a
// 1-D one. The order can only mean the 2-D loop; the 1-D loop, which has
// no dimension 1, was an error that made the option unusable in any
// program with loops of two ranks. Now the 1-D loop is ranked by the
// analysis, and its remark says why; an order that fits no loop is still
// an error (option-dim-order-out-of-range). Both print what the program
// as written prints.
// REQUIRES: mlir-runner
// RUN: threadbind-opt %s %lower_to_cpu | %run_cpu > %t.ref
// RUN: FileCheck %s --check-prefix=OUT < %t.ref
// RUN: threadbind-opt %s -threadbind-map-to-gpu="dim-order=1,0 remarks" 2>&1 >%t.mapped.mlir | FileCheck %s
// RUN: threadbind-opt %t.mapped.mlir -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu > %t.out
// RUN: diff %t.ref %t.out
// RUN: threadbind-compile %s --dim-order=1,0 -o %t.ptx

// CHECK-DAG: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x because it is the loop's only dimension (dim-order names dimensions this 1-D loop does not have; it orders the program's larger loops)
// CHECK-DAG: remark: bound to gpu.launch: loop dimension 1 on threadIdx.x because forced by dim-order
// OUT: 490

func.func @scale_rows(%a: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%i, %j] : memref<?x?xf32>
  }
  return
}

func.func @add_one(%v: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %v[%i] : memref<?xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %v[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant 7 : index
  %n = arith.constant 5 : index
  %a = memref.alloc(%m, %n) : memref<?x?xf32>
  %v = memref.alloc(%m) : memref<?xf32>
  scf.for %i = %c0 to %m step %c1 {
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    memref.store %fi, %v[%i] : memref<?xf32>
    scf.for %j = %c0 to %n step %c1 {
      %jj = arith.index_cast %j : index to i32
      %fj = arith.sitofp %jj : i32 to f32
      %s = arith.addf %fi, %fj : f32
      memref.store %s, %a[%i, %j] : memref<?x?xf32>
    }
  }
  call @scale_rows(%a, %m, %n) : (memref<?x?xf32>, index, index) -> ()
  call @add_one(%v, %m) : (memref<?xf32>, index) -> ()
  // The sum of 2 (i + j) over 7x5 (350) and of (i + 1)^2 over 7 (140).
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
    %vi = memref.load %v[%i] : memref<?xf32>
    %w = arith.mulf %vi, %vi : f32
    %acc1 = arith.addf %acc, %w : f32
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%r = %acc1) -> f32 {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %r1 = arith.addf %r, %x : f32
      scf.yield %r1 : f32
    }
    scf.yield %row : f32
  }
  vector.print %sum : f32
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %v : memref<?xf32>
  return
}
