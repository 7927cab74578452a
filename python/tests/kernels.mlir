// Kernels the Python tests compile: a scalar and two vectors, a 2-D loop
// with a static dimension, a full reduction, f16, a padded argument, and
// strided views, with dynamic and with fixed strides and offsets.

// y = a * x + y
func.func @axpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %xi = memref.load %x[%i] : memref<?xf32>
    %yi = memref.load %y[%i] : memref<?xf32>
    %p = arith.mulf %a, %xi : f32
    %s = arith.addf %p, %yi : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}

// out[i, j] = in[i, j] * (i + 1) + j, four rows
func.func @rows(%in: memref<4x?xf64>, %out: memref<4x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c1 : memref<4x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %n) step (%c1, %c1) {
    %v = memref.load %in[%i, %j] : memref<4x?xf64>
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %jj = arith.index_cast %j : index to i64
    %fj = arith.sitofp %jj : i64 to f64
    %p = arith.mulf %v, %fi : f64
    %r = arith.addf %p, %fj : f64
    memref.store %r, %out[%i, %j] : memref<4x?xf64>
  }
  return
}

// total[0] = 10 + sum(x)
func.func @total(%x: memref<?xi32>, %total: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 10 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%l: i32, %m: i32):
      %s = arith.addi %l, %m : i32
      scf.reduce.return %s : i32
    }
  }
  memref.store %r, %total[%c0] : memref<1xi32>
  return
}

// y = x * 2 in f16
func.func @twice_f16(%x: memref<?xf16>, %y: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f16
  %n = memref.dim %x, %c0 : memref<?xf16>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf16>
    %r = arith.mulf %v, %two : f16
    memref.store %r, %y[%i] : memref<?xf16>
  }
  return
}

// y = x + 1 over arguments padded to 256 elements
func.func @padded(%x: memref<?xf32> {threadbind.padded_to = 256},
                  %y: memref<?xf32> {threadbind.padded_to = 256}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %r = arith.addf %v, %one : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// b[i, j] = a[i, j] * s over views: any strides for a, unit columns for b
func.func @scale_view(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                      %b: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                      %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %n = memref.dim %a, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %b[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
  }
  return
}

// y[i, j] = x[i, j] + 1 over every other column, x from element 3
func.func @fixed_view(%x: memref<4x?xf64, strided<[?, 2], offset: 3>>,
                      %y: memref<4x?xf64, strided<[?, 2]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f64
  %n = memref.dim %x, %c1 : memref<4x?xf64, strided<[?, 2], offset: 3>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %n) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x?xf64, strided<[?, 2], offset: 3>>
    %r = arith.addf %v, %one : f64
    memref.store %r, %y[%i, %j] : memref<4x?xf64, strided<[?, 2]>>
  }
  return
}

// y[i] = on ? x[i] + k : x[i]: integer and boolean scalars, which the
// native torch kernels key their plans on
func.func @shift_by(%x: memref<?xi32>, %k: i32, %on: i1,
                    %y: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xi32>
    %w = arith.addi %v, %k : i32
    %r = arith.select %on, %w, %v : i32
    memref.store %r, %y[%i] : memref<?xi32>
  }
  return
}
