// The manifest's access flags follow a memref into the functions it is
// passed to: a helper that only reads its argument leaves the caller's
// memref read, one that stores makes it written. Python's torch ops take
// their mutated arguments from these flags, so "read-write" where a
// helper only reads would copy or order for nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit bundle -o %t/calls.so
// RUN: FileCheck %s < %t/calls.so.manifest.json

// CHECK: "entries": [
// CHECK: "name": "gather_scaled",
// CHECK: "access": "read"
// CHECK: "access": "write"
// CHECK: "name": "fill_through",
// CHECK: "access": "write"
// CHECK: "name": "bump_through",
// CHECK: "access": "read-write"

func.func private @load_scaled(%m: memref<?xf32>, %i: index) -> f32 {
  %v = memref.load %m[%i] : memref<?xf32>
  %two = arith.constant 2.0 : f32
  %w = arith.mulf %v, %two : f32
  return %w : f32
}

// A helper of a helper: still only a read.
func.func private @load_twice_scaled(%m: memref<?xf32>, %i: index) -> f32 {
  %v = func.call @load_scaled(%m, %i) : (memref<?xf32>, index) -> f32
  %w = arith.addf %v, %v : f32
  return %w : f32
}

func.func private @store_one(%m: memref<?xf32>, %i: index) {
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%i] : memref<?xf32>
  return
}

func.func private @bump(%m: memref<?xf32>, %i: index) {
  %v = memref.load %m[%i] : memref<?xf32>
  %one = arith.constant 1.0 : f32
  %w = arith.addf %v, %one : f32
  memref.store %w, %m[%i] : memref<?xf32>
  return
}

func.func @gather_scaled(%src: memref<?xf32>, %dst: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %dst, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = func.call @load_twice_scaled(%src, %i) : (memref<?xf32>, index) -> f32
    memref.store %v, %dst[%i] : memref<?xf32>
  }
  return
}

func.func @fill_through(%dst: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %dst, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @store_one(%dst, %i) : (memref<?xf32>, index) -> ()
  }
  return
}

func.func @bump_through(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @bump(%m, %i) : (memref<?xf32>, index) -> ()
  }
  return
}
