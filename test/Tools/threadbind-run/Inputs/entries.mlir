// Bundle entries with known results: every element type, static and dynamic
// shapes, scalars.

// out[i] = 3 * i
func.func @iota(%out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %out, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = arith.muli %i, %c3 : index
    %w = arith.index_cast %v : index to i32
    memref.store %w, %out[%i] : memref<?xi32>
  }
  return
}

// out[i][j] = a * (i + j) + b, over a static 4x8 f64 matrix.
func.func @affine_grid(%out: memref<4x8xf64>, %a: f64, %b: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %bf = arith.sitofp %b : i64 to f64
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i64
    %sf = arith.sitofp %si : i64 to f64
    %p = arith.mulf %sf, %a : f64
    %q = arith.addf %p, %bf : f64
    memref.store %q, %out[%i, %j] : memref<4x8xf64>
  }
  return
}

// y = x + y, f16: read x, read and write y.
func.func @add_f16(%x: memref<?xf16>, %y: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf16>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %x[%i] : memref<?xf16>
    %b = memref.load %y[%i] : memref<?xf16>
    %s = arith.addf %a, %b : f16
    memref.store %s, %y[%i] : memref<?xf16>
  }
  return
}

// A CPU-only harness, left out of bundles.
func.func @main() {
  return
}
