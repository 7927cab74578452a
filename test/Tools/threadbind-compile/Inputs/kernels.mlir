// Two host functions, three parallel loops, scalar arguments of several
// types: the driver's common test input.

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

func.func @two_loops(%m: memref<?x?xi32>, %k: i32, %d: f64, %out: memref<?xf64>, %lb: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xi32>
  %cols = memref.dim %m, %c1 : memref<?x?xi32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%rows, %cols) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xi32>
    %w = arith.addi %v, %k : i32
    memref.store %w, %m[%i, %j] : memref<?x?xi32>
  }
  %n = memref.dim %out, %c0 : memref<?xf64>
  scf.parallel (%i) = (%lb) to (%n) step (%c1) {
    memref.store %d, %out[%i] : memref<?xf64>
  }
  return
}
