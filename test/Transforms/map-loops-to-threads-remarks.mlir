// RUN: threadbind-opt %s -threadbind-map-loops-to-threads=remarks -split-input-file -verify-diagnostics

func.func @rows(%a: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{bound to gpu.launch: loop dimension 1 on threadIdx.x because it walks the unit-stride dimension of 1 of 1 accesses, 4 bytes per iteration; block 32x8x1, grid-stride grid}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

func.func @outer_contiguous_f64(%a: memref<?x?xf64>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop dimension 0 on threadIdx.x because it walks the unit-stride dimension of 2 of 2 accesses, 16 bytes per iteration}}
  scf.parallel (%j, %i) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf64>
    memref.store %x, %a[%i, %j] : memref<?x?xf64>
  }
  return
}

// -----

// Weighted by bytes: the f64 access, contiguous in i, outweighs the f32
// access contiguous in j.
func.func @bytes_decide(%a: memref<?x?xf32>, %b: memref<?x?xf64>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop dimension 0 on threadIdx.x because it walks the unit-stride dimension of 1 of 2 accesses, 8 bytes per iteration}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %m) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32>
    %y = memref.load %b[%j, %i] : memref<?x?xf64>
  }
  return
}

// -----

// Index arithmetic is followed: a[2 * i][j + 1] and an affine.apply.
#shift = affine_map<(d0)[s0] -> (d0 + s0)>
func.func @affine_index(%a: memref<?x?xf32>, %m: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-remark @below {{loop dimension 1 on threadIdx.x because it walks the unit-stride dimension of 2 of 2 accesses}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %m) step (%c1, %c1) {
    %r = arith.muli %i, %c2 : index
    %c = affine.apply #shift(%j)[%s]
    %x = memref.load %a[%r, %c] : memref<?x?xf32>
    memref.store %x, %a[%i, %c] : memref<?x?xf32>
  }
  return
}

// -----

// No dimension is contiguous (a gather through a[i * i]): the one whose
// accesses are not strided (j, on which the address does not depend) is
// used, and the remark names that rule.
func.func @no_contiguous(%a: memref<?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop dimension 1 on threadIdx.x because no dimension walks a unit-stride memref dimension, and fewer of its accesses are strided (0, against 1 for dimension 0)}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %m) step (%c1, %c1) {
    %sq = arith.muli %i, %i : index
    %x = memref.load %a[%sq] : memref<?xf32>
  }
  return
}

// -----

// A step of 2 makes consecutive iterations two elements apart: not unit
// stride, so the other dimension wins.
func.func @step_two(%a: memref<?x?xf32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-remark @below {{loop dimension 0 on threadIdx.x because it walks the unit-stride dimension of 1 of 2 accesses}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %m) step (%c1, %c2) {
    %x = memref.load %a[%j, %i] : memref<?x?xf32>
    %y = memref.load %a[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// Nothing is contiguous and nothing strided: the innermost dimension.
func.func @innermost(%a: memref<f32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop dimension 1 on threadIdx.x because no dimension walks a unit-stride memref dimension, so the innermost one is used}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %m) step (%c1, %c1) {
    %x = memref.load %a[] : memref<f32>
  }
  return
}

// -----

// A gather whose innermost dimension has 4 iterations: the 65536-iteration
// dimension goes to x, where a warp's 32 lanes have work, and the remark
// says so.
func.func @fills_warp(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c65536 = arith.constant 65536 : index
  // expected-remark @below {{loop dimension 0 on threadIdx.x because no dimension walks a unit-stride memref dimension, and it has iterations (65536) to fill a warp, where dimension 1 has only 4; block 64x4x1}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%c65536, %c4) step (%c1, %c1) {
    %ii = arith.muli %i, %i : index
    %jj = arith.muli %j, %j : index
    %p = arith.addi %ii, %jj : index
    %x = memref.load %a[%p] : memref<?xf32>
  }
  return
}
