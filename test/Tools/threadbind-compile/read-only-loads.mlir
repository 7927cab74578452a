// Loads through the read-only data cache: a kernel that reads some memref
// arguments and writes others gets a copy whose read-only loads are
// ld.global.nc (its read-only parameters noalias), launched where the host
// finds their bytes disjoint from the written ones'; the manifest says so.
// A memref the kernel both reads and writes is never loaded that way, and
// without --read-only-loads (the default) every kernel is left alone.
// RUN: rm -rf %t && mkdir -p %t
// RUN: threadbind-compile %s --emit ptx --read-only-loads -o %t/on.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/on.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/on.ptx.manifest.json
// RUN: threadbind-compile %s --emit mlir --read-only-loads | FileCheck %s --check-prefix=MLIR
// RUN: threadbind-compile %s --emit ptx -o %t/off.ptx
// RUN: FileCheck %s --check-prefix=OFF < %t/off.ptx

// Each copy loads x (axpy) or a (twice, its unit-stride copy and its
// general one) through the read-only cache, y and b never; the kernels as
// written load nothing that way.
// PTX-LABEL: .visible .entry axpy_kernel(
// PTX: ld.global.nc.b32
// PTX: ld.global.b32
// PTX: ld.global.nc.v4.b32
// PTX-NEXT: ld.global.v4.b32
// PTX: .visible .entry axpy_kernel_0(
// PTX-NOT: ld.global.nc
// PTX: .visible .entry twice_kernel(
// PTX: ld.global.nc.v4.b32
// PTX: .visible .entry twice_kernel_1(
// PTX-NOT: ld.global.nc
// PTX: .visible .entry twice_kernel_2(
// PTX: ld.global.nc.b32
// PTX: .visible .entry twice_kernel_3(
// PTX-NOT: ld.global.nc
// PTX: .visible .entry in_place_kernel(
// PTX-NOT: ld.global.nc

// MANIFEST: "name": "axpy_kernel",
// MANIFEST: "launch_if": {"op":"disjoint","args":[{"arg":1},{"arg":2}]},
// MANIFEST: "name": "axpy_kernel_0",
// MANIFEST: "launch_if": {"op":"not","args":[{"op":"disjoint","args":[{"arg":1},{"arg":2}]}]},
// MANIFEST: "name": "twice_kernel",
// MANIFEST: "launch_if": {"op":"and","args":[{"op":"and","args":[{"op":"eq","args":[{"stride":[0,0]},1]},{"op":"eq","args":[{"stride":[1,0]},1]}]},{"op":"disjoint","args":[{"arg":0},{"arg":1}]}]},
// MANIFEST: "name": "in_place_kernel",
// MANIFEST-NOT: disjoint

// MLIR-LABEL: func.func @axpy(
// MLIR: call @threadbind_disjoint
// MLIR-LABEL: func.func @in_place(
// MLIR-NOT: call @threadbind_disjoint
// MLIR-LABEL: func.func private @threadbind_disjoint(

// OFF-NOT: ld.global.nc
// OFF-NOT: axpy_kernel_0

// y = a x + y: x only read, y read and written.
func.func @axpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %xv = memref.load %x[%i] : memref<?xf32>
    %yv = memref.load %y[%i] : memref<?xf32>
    %p = arith.mulf %a, %xv : f32
    %s = arith.addf %p, %yv : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}

// b = 2 a, over views.
func.func @twice(%a: memref<?xf32, strided<[?], offset: ?>>,
                 %b: memref<?xf32, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %b, %c0 : memref<?xf32, strided<[?], offset: ?>>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32, strided<[?], offset: ?>>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %b[%i] : memref<?xf32, strided<[?], offset: ?>>
  }
  return
}

// a = 2 a: nothing only read.
func.func @in_place(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %a[%i] : memref<?xf32>
  }
  return
}
