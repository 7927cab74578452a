// 5-point stencil over the interior: out = 0.2 * (c + n + s + w + e).
func.func @stencil(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fifth = arith.constant 0.2 : f32
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %m1 = arith.subi %m, %c1 : index
  %n1 = arith.subi %n, %c1 : index
  scf.parallel (%i, %j) = (%c1, %c1) to (%m1, %n1) step (%c1, %c1) {
    %up = arith.subi %i, %c1 : index
    %down = arith.addi %i, %c1 : index
    %left = arith.subi %j, %c1 : index
    %right = arith.addi %j, %c1 : index
    %vc = memref.load %in[%i, %j] : memref<?x?xf32>
    %vn = memref.load %in[%up, %j] : memref<?x?xf32>
    %vs = memref.load %in[%down, %j] : memref<?x?xf32>
    %vw = memref.load %in[%i, %left] : memref<?x?xf32>
    %ve = memref.load %in[%i, %right] : memref<?x?xf32>
    %s1 = arith.addf %vc, %vn : f32
    %s2 = arith.addf %s1, %vs : f32
    %s3 = arith.addf %s2, %vw : f32
    %s4 = arith.addf %s3, %ve : f32
    %r = arith.mulf %s4, %fifth : f32
    memref.store %r, %out[%i, %j] : memref<?x?xf32>
  }
  return
}
