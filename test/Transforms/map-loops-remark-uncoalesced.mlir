// A 1-D loop leaves no dimension to choose, but its remark says when the
// accesses that move with it do not walk memory contiguously: a user
// reading an array of structures or a matrix down its columns learns why
// the kernel is slow, and that the layout is theirs to change.
// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=remarks -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x because it is the loop's only dimension, though none of the 2 accesses that move with it walks a unit-stride memref dimension one element an iteration, so a warp's accesses do not coalesce; block
func.func @column_walk(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i, %c0] : memref<?x?xf32>
    memref.store %x, %b[%i, %c1] : memref<?x?xf32>
  }
  return
}

// CHECK: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x because it is the loop's only dimension, though only 1 of the 2 accesses that move with it walk a unit-stride memref dimension one element an iteration (the others do not coalesce); block
func.func @structure_field(%points: memref<?x4xf32>, %out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %w = memref.load %points[%i, %c3] : memref<?x4xf32>
    memref.store %w, %out[%i] : memref<?xf32>
  }
  return
}

// CHECK: remark: bound to gpu.launch: loop dimension 0 on threadIdx.x because it is the loop's only dimension; block
func.func @contiguous(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %b[%i] : memref<?xf32>
  }
  return
}
