// Refused: memref.generic_atomic_rmw on floats (CUDA's atomicCAS float
// maximum, written as MLIR). MLIR 22 lowers it to an LLVM cmpxchg of the
// element type, which takes integers and pointers only: the bound IR was
// made and the device lowering then failed with a message about
// llvm.cmpxchg. Now it is an error at the op, naming the way out; the same
// op on integers, and memref.atomic_rmw on floats, map.
// RUN: threadbind-opt %s -threadbind-map-to-gpu -verify-diagnostics -o /dev/null
// RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: sed -e '/FLOAT-BEGIN/,/FLOAT-END/d' %s > %t.int.mlir
// RUN: threadbind-compile %t.int.mlir --emit cubin -o %t.cubin

// FLOAT-BEGIN
func.func @bin_max(%bins: memref<?xi32>, %w: memref<?xf32>, %max: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %bins, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %b = memref.load %bins[%i] : memref<?xi32>
    %bi = arith.index_cast %b : i32 to index
    %x = memref.load %w[%i] : memref<?xf32>
    // CHECK: .mlir:[[@LINE+2]]:10: error: cannot run on the device: 'memref.generic_atomic_rmw' on 'f32' lowers to a compare-and-swap that MLIR's lowering to LLVM takes on integers only; use memref.atomic_rmw where a kind fits (addf, maximumf, minimumf, ...), or keep the values as integer bits
    // expected-error @below {{cannot run on the device: 'memref.generic_atomic_rmw' on 'f32' lowers to a compare-and-swap}}
    %o = memref.generic_atomic_rmw %max[%bi] : memref<?xf32> {
    ^bb0(%cur: f32):
      %m = arith.maximumf %cur, %x : f32
      memref.atomic_yield %m : f32
    }
  }
  return
}
// FLOAT-END

func.func @bin_max_int(%bins: memref<?xi32>, %w: memref<?xi32>, %max: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %bins, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %b = memref.load %bins[%i] : memref<?xi32>
    %bi = arith.index_cast %b : i32 to index
    %x = memref.load %w[%i] : memref<?xi32>
    %o = memref.generic_atomic_rmw %max[%bi] : memref<?xi32> {
    ^bb0(%cur: i32):
      %m = arith.maxsi %cur, %x : i32
      memref.atomic_yield %m : i32
    }
  }
  return
}

func.func @bin_max_kind(%bins: memref<?xi32>, %w: memref<?xf32>, %max: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %bins, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %b = memref.load %bins[%i] : memref<?xi32>
    %bi = arith.index_cast %b : i32 to index
    %x = memref.load %w[%i] : memref<?xf32>
    %o = memref.atomic_rmw maximumf %x, %max[%bi] : (f32, memref<?xf32>) -> f32
  }
  return
}
