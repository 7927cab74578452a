// Kernels that examples/launcher/main.cpp launches from C++ through the
// header `threadbind-compile --emit header` writes: a widened 1-D loop with
// a scalar, a transpose staged through shared memory, a reduction along
// rows, a view with strides the caller chooses (two versions, picked by a
// launch condition), and a full reduction through device scratch.

func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
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

func.func @transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<?x?xf32>
    memref.store %x, %out[%j, %i] : memref<?x?xf32>
  }
  return
}

func.func @row_sums(%m: memref<?x?xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %rows = memref.dim %m, %c0 : memref<?x?xf64>
  %cols = memref.dim %m, %c1 : memref<?x?xf64>
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    %sum = scf.parallel (%j) = (%c0) to (%cols) step (%c1) init (%zero) -> f64 {
      %v = memref.load %m[%i, %j] : memref<?x?xf64>
      scf.reduce(%v : f64) {
      ^bb0(%lhs: f64, %rhs: f64):
        %r = arith.addf %lhs, %rhs : f64
        scf.reduce.return %r : f64
      }
    }
    memref.store %sum, %out[%i] : memref<?xf64>
  }
  return
}

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

// A full reduction: per-block partial sums in device scratch that the
// launcher allocates on the stream, then one block adds them up.
func.func @sum(%x: memref<?xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = memref.dim %x, %c0 : memref<?xi32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> i32 {
    %v = memref.load %x[%i] : memref<?xi32>
    scf.reduce(%v : i32) {
    ^bb0(%a: i32, %b: i32):
      %r = arith.addi %a, %b : i32
      scf.reduce.return %r : i32
    }
  }
  memref.store %s, %out[%c0] : memref<1xi32>
  return
}
